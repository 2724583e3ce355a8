"""Correct zh_CN replies written the way a chatty LLM host writes them (宝子们, emoji, number words, 繁体字, markdown
lists, several questions in one comment, the honest "详情页没写"), each with a wrong twin that must still fail.

Rooms: the built-in beauty_zh, groceries_zh, healthfood_zh and apparel_flash_zh at catalog seed 1717 (t=100), and the
calibration rooms rooms/jiafang_zh.yaml (seed 7702, t=60), rooms/shuma_zh.yaml (5510, t=100) and rooms/shengxian_zh.yaml
(9905, t=100). Every expectation is read from
``python scenarios/calibration/facts.py room ROOM SEED T``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hat_env.scoring import grade
from hat_env.types import Intent
from rooms import bad, room

JIAFANG = str(Path(__file__).parents[1] / "scenarios" / "calibration" / "rooms" / "jiafang_zh.yaml")
NO_FAULTS = {"timeout": 0, "malformed": 0, "permission_denied": 0}


def verdict(scenario: str, seed: int, comment: str, reply: str, t: float = 100.0) -> tuple[float, float, float]:
    """The (accuracy, effectiveness, compliance) ``grade()`` gives one final ``reply`` to one free-text ``comment``
    (parsed by the grader) in ``scenario`` at catalog ``seed`` and time ``t``, with no tool faults."""
    case = {"scenario": scenario, "seed": seed, "t": t, "locale": "zh_CN", "comments": [{"text": comment}],
            "faults": NO_FAULTS}
    c = grade(case, [reply])["components"]
    return c["accuracy"], c["effectiveness"], c["compliance"]


def passes(v: tuple[float, float, float]) -> bool:
    """A reply passes when it is accurate, answers at least half of what was asked and is compliant."""
    return v[0] == 1.0 and v[1] >= 0.5 and v[2] == 1.0


# (scenario, comment, right reply, wrong twin)
PROBES = [
    # --- beauty_zh 1717: 3号防晒 119 - 30 券 = 89, SPF50+ PA++++; 1号精华 30ml 159, 48h 顺丰包邮; 2号口红 99 24h
    ("beauty_zh", "3号防晒多少钱", "宝子们～3号防晒霜领券立减30，到手价89哦💕", "宝子们～3号防晒霜领券后到手价79哦💕"),
    ("beauty_zh", "防晒霜现在什么价", "防晒霜原价119，现在有立减30元券，券后八十九元到手～",
     "防晒霜原价119，现在有立减30元券，券后六十九元到手～"),
    ("beauty_zh", "3号防晒倍数多少", "3号是SPF50+ PA++++的，通勤户外都够用☀️", "3号是SPF30 PA+++的，通勤户外都够用☀️"),
    ("beauty_zh", "1号精华多大容量", "家人们，1号玻尿酸精华一瓶30ml哦～", "家人们，1号玻尿酸精华一瓶50ml哦～"),
    ("beauty_zh", "1号精华几天发货", "1号精华48小时内顺丰发出，全国包邮📦", "1号精华72小时内顺丰发出，全国包邮📦"),
    ("beauty_zh", "1号精华能退吗", "未拆封的话支持七天无理由退货哦～", "拆封用过也支持30天无理由退货哦～"),
    ("beauty_zh", "2号口红有哪些色号", "2号口红有三个色：01正红、02豆沙、03奶茶，黄皮可以看看豆沙和奶茶💄",
     "2号口红有01正红和05枫叶红两个色💄"),
    ("beauty_zh", "6号洗面奶多少克", "6号氨基酸洗面奶一支120克，很温和～", "6号氨基酸洗面奶一支200克，很温和～"),
    ("beauty_zh", "6号洗面奶适合什么肤质", "6号更适合干皮和敏感肌的宝宝哦～", "6号是油皮专用的哦～"),
    ("beauty_zh", "3号防晒保质期多久", "3号防晒保质期三年哈", "3号防晒保质期一年哈"),
    ("beauty_zh", "4号粉底有防晒吗", "有的，4号粉底液自带SPF25 PA++～", "有的，4号粉底液自带SPF50 PA++++～"),
    ("beauty_zh", "2号口红多少钱 几天发货", "2号口红99元，24小时内顺丰发货，包邮的～",
     "2号口红89元，24小时内顺丰发货，包邮的～"),
    ("beauty_zh", "3號防曬多少錢", "3號防曬霜券後89元到手，還有全店滿199減30哦～", "3號防曬霜券後59元到手哦～"),
    ("beauty_zh", "8号面霜还有货吗", "8号面霜还剩3件，需要的宝子抓紧～", "8号面霜库存还有两百多件，随便拍～"),
    # --- groceries_zh 1717: 1号脐橙 39.9 5斤 12-15 Brix; 2号车厘子 129-20=109 1kg; 3号葡萄售罄; 4号大米 五常
    ("groceries_zh", "1号橙子多少钱", "赣南脐橙5斤装39.9元，不到四十块，还包邮🍊", "赣南脐橙5斤装49.9元，还包邮🍊"),
    ("groceries_zh", "橙子甜不甜", "1号脐橙糖度12-15 Brix，酸甜适口，果肉多汁～", "1号脐橙糖度20 Brix以上，齁甜～"),
    ("groceries_zh", "橙子坏了怎么办", "签收后48小时内拍照联系客服，坏果按个包赔，放心买～",
     "签收后7天内拍照联系客服，坏果按个包赔～"),
    ("groceries_zh", "车厘子多少钱", "2号车厘子单品立减20，券后109元，还加送冰袋🍒", "2号车厘子单品立减20，券后99元🍒"),
    ("groceries_zh", "车厘子多重", "净重1kg，也就是两斤～", "净重3斤哦～"),
    ("groceries_zh", "3号葡萄还有吗", "阳光玫瑰暂时卖光啦，等补货哈～", "阳光玫瑰还有很多，放心拍～"),
    ("groceries_zh", "4号大米是新米吗", "是今年秋季的新米，包装上印着生产日期哦🌾", "是去年的陈米，不过很香～"),
    ("groceries_zh", "4号大米哪里产的", "黑龙江五常产的，10斤装～", "吉林舒兰产的，10斤装～"),
    ("groceries_zh", "1号橙子能退吗", "生鲜不支持无理由退货哈，不过坏果拍照48小时内包赔～",
     "支持七天无理由退货，放心买～"),
    # --- healthfood_zh 1717: 1号维C 成人每天1片; 2号蛋白粉 3件, 每勺含蛋白质24g; 3号鱼油 139-20=119, 每天2粒
    ("healthfood_zh", "维C一天吃几片", "成年人每天吃1片就够啦，直接嚼服～", "每天吃3片效果更好哦～"),
    ("healthfood_zh", "蛋白粉一勺多少蛋白质", "每勺30g冲调大约含24g蛋白质，以包装营养成分表为准～",
     "每勺大约含40g蛋白质～"),
    ("healthfood_zh", "鱼油能降血脂吗", "鱼油是保健食品，不能代替药物，也不承诺降血脂哦，血脂问题请咨询医生～",
     "能降血脂的，坚持吃一个月血脂就下来了～"),
    ("healthfood_zh", "鱼油什么时候吃", "建议随餐吃，每天2粒～", "建议空腹吃，每天5粒～"),
    ("healthfood_zh", "益生菌小孩能吃吗", "这款益生菌适合成人，小朋友建议选儿童专用的哈～", "小孩大人都能吃，放心给宝宝吃～"),
    ("healthfood_zh", "2号蛋白粉还有货吗", "2号蛋白粉只剩3件了，要的抓紧～", "2号蛋白粉库存充足，还有好几百件～"),
    ("healthfood_zh", "5号胶原蛋白还有吗", "5号胶原蛋白肽饮已经卖完了哦，抱歉～", "5号胶原蛋白肽饮还有货，放心拍～"),
    ("healthfood_zh", "鱼油多少钱", "3号鱼油单品立减20元，券后119元到手～", "3号鱼油单品立减20元，券后99元到手～"),
    # --- apparel_flash_zh 1717: 1号羽绒服 秒杀339, 满300减30 -> 309; 2号卫衣 100%棉 24h 中通; 5号围巾 6件
    ("apparel_flash_zh", "1号羽绒服多少钱", "上半场秒杀339，再叠全店满300减30，到手309元🔥", "秒杀价叠满减，到手289元🔥"),
    ("apparel_flash_zh", "羽绒服170 60kg穿什么码", "170/60kg建议拿M码，喜欢宽松的可以选L～", "170/60kg建议拿XXL～"),
    ("apparel_flash_zh", "2号卫衣有什么颜色", "2号卫衣有燕麦色、灰色、黑色三个色～", "2号卫衣有红色和白色两个色～"),
    ("apparel_flash_zh", "3号牛仔裤会掉色吗", "第一次洗可能有轻微浮色，建议单独冷水洗哦～", "完全不掉色，随便机洗～"),
    ("apparel_flash_zh", "4号连衣裙有内衬吗", "有的，是半身内衬，不透～", "没有内衬，夏天穿更凉快～"),
    ("apparel_flash_zh", "5号围巾还有货吗", "5号围巾还有6条，要的抓紧～", "5号围巾库存还有五百条～"),
    ("apparel_flash_zh", "5号围巾什么材质", "50%羊毛加50%腈纶混纺的，软软糯糯～", "100%纯羊毛的哦～"),
    ("apparel_flash_zh", "4号连衣裙送什么", "买连衣裙送发夹哦🎀", "买连衣裙送真丝丝巾哦🎀"),
    ("apparel_flash_zh", "2号卫衣几天发货", "24小时内中通发出，包邮哈～", "下单后5天内发出哈～"),
    ("apparel_flash_zh", "2号卫衣能退换吗", "吊牌完好支持7天无理由退换～", "支持15天无理由退换～"),
    ("apparel_flash_zh", "1号羽绒服多少钱 有什么颜色", "- 价格：到手309元\n- 颜色：黑色、米白色、雾蓝色",
     "- 价格：到手309元\n- 颜色：黑色、酒红色"),
]


@pytest.mark.parametrize(("scenario", "comment", "right", "wrong"), PROBES)
def test_a_chatty_right_reply_passes_and_its_wrong_twin_fails(scenario: str, comment: str, right: str,
                                                              wrong: str) -> None:
    assert passes(verdict(scenario, 1717, comment, right)), verdict(scenario, 1717, comment, right)
    assert not passes(verdict(scenario, 1717, comment, wrong)), verdict(scenario, 1717, comment, wrong)


SHUMA = str(Path(__file__).parents[1] / "scenarios" / "calibration" / "rooms" / "shuma_zh.yaml")

# (scenario, seed, t, comment, right reply, wrong twin): a room's own attributes, yes/no questions, honest unknowns,
# FAQ paraphrases, comparisons and answers spread over several sentences
PROBES2 = [
    # shuma_zh: 1号充电宝 10000mAh 20W 186g, 38.5Wh 可登机不可托运; 2号耳机 IPX4 299-20=279 送保护套;
    # 3号手机壳 TPU+PC; 4号充电器 65W 两年质保 只换不修; 5号表带 售罄; 6号数据线 2m 480Mbps; 7号支架 铝合金+硅胶
    (SHUMA, 5510, 100, "2号耳机防水吗", "是IPX4级的，日常出汗没问题～", "IPX8级防水，戴着游泳都行💦"),
    (SHUMA, 5510, 100, "4号充电器能充笔记本吗", "能的，单口最大65W，支持PD协议的笔记本都能充，MacBook Air也行💻",
     "充不了笔记本哦，最大只有20W"),
    (SHUMA, 5510, 100, "4号充电器保修多久", "两年质保，只换不修，放心用～", "三年质保，只换不修～"),
    (SHUMA, 5510, 100, "数据线多长", "6号数据线2米长，尼龙编织的，很耐折～", "6号数据线1.5米长～"),
    (SHUMA, 5510, 100, "数据线能传数据吗", "可以传的，USB2.0，480Mbps～", "不能传数据，只能充电哦"),
    (SHUMA, 5510, 100, "5号表带还有吗", "表带暂时卖完了哦，等补货～", "表带还有很多，随便拍～"),
    (SHUMA, 5510, 100, "充电宝能带上飞机吗", "能随身带上飞机，约38.5Wh，低于民航100Wh的限制，不过不能托运哦✈️",
     "可以托运也可以随身带～"),
    (SHUMA, 5510, 100, "2号耳机有什么活动", "买Airo耳机送硅胶保护套，全店还有满199减20～", "耳机买一送一哦～"),
    (SHUMA, 5510, 100, "2号耳机多少钱", "耳机原价299，满199减20，到手279元🎧", "耳机满减后到手259元🎧"),
    (SHUMA, 5510, 100, "1号充电宝重不重", "186克，不到两百克，揣兜里不沉～", "350克左右，有点压手～"),
    (SHUMA, 5510, 100, "车载支架是塑料的吗", "不是塑料哦，是铝合金+硅胶的～", "是的，全塑料的～"),
    (SHUMA, 5510, 100, "充电器和数据线哪个便宜", "数据线29.9元，充电器到手109元，数据线便宜多啦～",
     "数据线39.9元，充电器到手129元～"),
    # jiafang_zh: 1号鹅绒被 95% 1000g 869 跑绒质保1年; 3号四件套 可机洗 第二套半价; 4号乳胶枕 不可水洗 拆封不退;
    # 5号毛毯 运费6元; 6号夏凉被 售罄; 7号蚕丝被 干洗 3-5天发 京东
    (SHUMA, 5510, 100, "数据线送不送收纳包", "详情页没写送收纳包哈，我不乱承诺～", "送的送的～"),
    (SHUMA, 5510, 100, "3号手机壳有赠品吗", "没有哦，手机壳是单独卖的～", "有的，送两张钢化膜～"),
    (JIAFANG, 7702, 60, "乳胶枕是不是记忆棉的", "不是哦，是天然乳胶的，泰国产～", "是的，慢回弹记忆棉～"),
    (JIAFANG, 7702, 60, "乳胶枕能治颈椎病吗", "这是普通枕头，不能治疗颈椎病哦，睡眠问题建议咨询医生～",
     "可以的，天然乳胶，长期睡能治好颈椎病～"),
    (JIAFANG, 7702, 60, "3号四件套可以机洗不", "可以的～", "不行哦～"),
    (JIAFANG, 7702, 60, "乳胶枕能水洗吗", "不能哦", "可以的"),
    (JIAFANG, 7702, 60, "7号蚕丝被能机洗吗", "不行哦，这款只能干洗～", "能！"),
    (JIAFANG, 7702, 60, "5号毛毯有什么颜色", "5号有燕麦色和雾霾蓝两个颜色哦～", "5号有燕麦色和酒红色两个颜色哦～"),
    (JIAFANG, 7702, 60, "1号鹅绒被含绒量多少", "含绒量95%，是白鹅绒哦～", "含绒量90%，是白鹅绒哦～"),
    (JIAFANG, 7702, 60, "1号冬被填充多重", "填充1000克，也就是两斤～", "填充三斤，很厚实～"),
    (JIAFANG, 7702, 60, "毛毯包邮吗", "毛毯不包邮哦，运费6元～", "毛毯包邮的～"),
    (JIAFANG, 7702, 60, "乳胶枕能退吗", "贴身寝具，真空包装拆封后就不退不换了哈", "支持7天无理由退货～"),
    (JIAFANG, 7702, 60, "四件套有什么活动", "四件套第二套半价，全店还有满299减30～", "四件套第二套免费送～"),
    (JIAFANG, 7702, 60, "7号蚕丝被几天发货", "蚕丝被要3-5天发出，走京东物流～", "蚕丝被24小时内发出～"),
    (JIAFANG, 7702, 60, "1号鹅绒被质保多久", "跑绒质保一年哦～", "跑绒质保三年哦～"),
    (JIAFANG, 7702, 60, "6号夏凉被还有吗", "夏凉被已经售罄了，抱歉宝子～", "夏凉被还有货，快拍～"),
    (JIAFANG, 7702, 60, "1号和7号哪个便宜", "1号到手869，7号券后1199，1号便宜330～", "1号到手799，7号券后1099～"),
    (JIAFANG, 7702, 60, "2号和6号哪个更透气", "详情页没写透气性的数据哦，不好乱比～2号是水洗棉面料的春秋被，6号是莱赛尔天丝的夏凉被",
     "2号和6号都是好被子，闭眼入～"),
    (JIAFANG, 7702, 60, "2号和6号哪个便宜", "2号199元，6号259元，2号便宜60块～", "详情页没写价格对比哦～"),
    # built-in rooms at seed 1717
    ("beauty_zh", 1717, 100, "5号能祛痘吗", "化妆品不能承诺祛痘效果哈，这个我没法给你打包票；5号主要成分是烟酰胺、传明酸、泛醇～",
     "能祛痘，用一周痘痘全消～"),
    ("beauty_zh", 1717, 100, "5号能淡斑吗", "淡斑这种功效我不敢给你打包票哦，化妆品不是药；它的成分是烟酰胺、传明酸和泛醇～",
     "能淡斑，坚持用一个月斑就没了～"),
    ("beauty_zh", 1717, 100, "口红有奶茶色吗", "有的，03奶茶色～", "没有奶茶色哦～"),
    ("healthfood_zh", 1717, 100, "维C大人一天几片", "大人一天一片就行，嚼着吃～", "大人一天三片～"),
    ("healthfood_zh", 1717, 100, "鱼油一天吃几粒", "一日两粒，跟着饭一起吃就行～", "一日四粒，空腹吃～"),
    ("groceries_zh", 1717, 100, "车厘子什么时候发？包邮吗？", "48小时内发。走顺丰冷运。全国包邮的哦～",
     "72小时内发，运费10元～"),
    ("groceries_zh", 1717, 100, "4号大米是有机的吗", "是的，这款五常大米是有机的～", "不是有机的哦～"),
]


@pytest.mark.parametrize(("scenario", "seed", "t", "comment", "right", "wrong"), PROBES2)
def test_a_right_reply_in_a_rooms_own_terms_passes_and_its_wrong_twin_fails(scenario: str, seed: int, t: float,
                                                                            comment: str, right: str,
                                                                            wrong: str) -> None:
    assert passes(verdict(scenario, seed, comment, right, t)), verdict(scenario, seed, comment, right, t)
    assert not passes(verdict(scenario, seed, comment, wrong, t)), verdict(scenario, seed, comment, wrong, t)


def test_a_gift_question_is_not_answered_by_it_does_not_say_when_a_gift_runs() -> None:
    """"页面没写送东西" is the honest answer only when no gift runs for the product: 2号耳机 comes with a 硅胶保护套
    now, so saying the page does not say fails, and naming the gift passes."""
    assert not passes(verdict(SHUMA, 5510, "2号耳机送什么", "页面没写送东西哦～"))
    assert passes(verdict(SHUMA, 5510, "2号耳机送什么", "买Airo耳机送硅胶保护套～"))


def test_a_bare_yes_answers_only_what_the_spec_value_writes() -> None:
    """"能！" answers "能机洗吗" of a 可机洗 product; not of a 干洗 one (the value does not say 机洗 at all), and a bare
    "不能" is wrong where the value says it can."""
    assert passes(verdict(JIAFANG, 7702, "5号毛毯能机洗吗", "能！", 60))
    assert not passes(verdict(JIAFANG, 7702, "1号冬被能机洗吗", "能！", 60))
    assert not passes(verdict(JIAFANG, 7702, "5号毛毯能机洗吗", "不能～", 60))


SHENGXIAN = str(Path(__file__).parents[1] / "scenarios" / "calibration" / "rooms" / "shengxian_zh.yaml")


@pytest.mark.parametrize(("reply", "ok"), [
    ("厄瓜多尔白虾，一斤大概三四十只，整箱两公斤～", True),  # how many to the jin: a grade, not a weight
    ("白虾个头均匀，三四十只一斤，净重2kg", True),
    ("白虾一斤大概20-30只，个头很大～", False),  # the grade is 30-40只/斤
    ("白虾二三十只一斤的大虾～", False),
    ("厄瓜多尔白虾是一斤装的哦～", False),  # one jin said as the pack's weight (it is 2kg)
    ("厄瓜多尔白虾净重一斤", False),
])
def test_one_unit_next_to_a_count_is_a_grade_not_a_weight(reply: str, ok: bool) -> None:
    """"一斤三四十只": one of a unit right next to a count says how many go to the unit (the product's 30-40只/斤);
    a count range there is checked against that grade; the same 一斤 said alone is the pack's weight, checked against
    net_weight 2kg."""
    r = room(SHENGXIAN, 9905, 100.0)
    assert (not bad(reply, r, Intent("spec", link=6, attr="net_weight"))) is ok


CHUFANG = str(Path(__file__).parents[1] / "scenarios" / "calibration" / "rooms" / "chufang_zh.yaml")


@pytest.mark.parametrize(("reply", "ok"), [
    ("七件套刀具2天之内（四十八小时）走韵达发出～", True),
    ("七件套刀具1天之内（二十四小时）走韵达发出～", False),  # it ships within 48 h
])
def test_a_time_in_a_clause_naming_a_set_is_the_sentences_shipping_time(reply: str, ok: bool) -> None:
    """"七件套...2天之内（48小时）...发出": 套 names the set (its size is a length, 刀座高32cm), so the two days are
    checked as the shipping time the sentence goes on to name, not as the set's size."""
    r = room(CHUFANG, 8125, 100.0)
    assert (not bad(reply, r, Intent("shipping", link=2))) is ok, bad(reply, r, Intent("shipping", link=2))


@pytest.mark.parametrize(("reply", "ok"), [
    ("3号鱼油一天两粒，跟饭一起吃～", True),  # the day a dose is taken in (FAQ: 每天2粒)
    ("3号鱼油一天就能发货～", False),  # a shipping time: it ships within 48 h
])
def test_the_day_of_a_dose_is_no_shipping_time(reply: str, ok: bool) -> None:
    """"一天两粒": 一天 right before a count is the dose's period, not a time the product ships in."""
    r = room("healthfood_zh", 1717, 100.0)
    assert (not bad(reply, r, Intent("spec", link=3, attr="unknown"))) is ok, bad(reply, r)
