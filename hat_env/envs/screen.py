"""What the viewers of a multi-host room see: the header (shop, hosts, audience, clock), the pinned product with
its shown price and deals, coupons sent, and the latest comments, replies and purchases."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from hat_env.sim.campaigns import fmt_money

if TYPE_CHECKING:
    from hat_env.sim.room import RoomState
    from hat_env.sim.scenario import Scenario

#: Longest line on the screen (longer ones end in an ellipsis).
LINE_CHARS = 300


class Screen:
    """The room's shared screen.

    Args:
        scenario: the scenario (locale, shop name).
        state: the room state (clock, pinned product, campaigns, coupons).
        lines: how many comment/reply/purchase lines it keeps.
    """

    def __init__(self, scenario: "Scenario", state: "RoomState", lines: int):
        self.scenario = scenario
        self.state = state
        self.lines: deque[str] = deque(maxlen=max(1, int(lines)))
        self.zh = scenario.locale == "zh_CN"
        self.currency = "¥" if self.zh else "$"

    def add(self, t: float, line: str) -> None:
        """Show ``line`` stamped with room time ``t`` (the oldest line scrolls off)."""
        s = int(t)
        if len(line) > LINE_CHARS:
            line = line[: LINE_CHARS - 1] + "…"
        self.lines.append(f"[{s // 60:02d}:{s % 60:02d}] {line}")

    def render(self, host_names: list[str], watching: int) -> str:
        """The screen now, with the hosts' names and the audience size in the header."""
        room = self.state
        zh = self.zh
        cur = self.currency
        hosts = "、".join(host_names) if zh else ", ".join(host_names)
        s = int(room.t)
        clock = f"{s // 60:02d}:{s % 60:02d}"
        shop = self.scenario.room.shop_name
        lines = [f"{shop} 直播间 · 主播 {hosts} · {watching}人在看 · {clock}" if zh
                 else f"{shop} live · hosts {hosts} · {watching} watching · {clock}"]
        p = room.by_id.get(room.pinned) if room.pinned else None
        if p is not None:
            price = fmt_money(room.effective_price(p))
            deals = "，".join(c.title for c in room.active_campaigns(p.product_id)) if zh else \
                ", ".join(c.title for c in room.active_campaigns(p.product_id))
            if zh:
                lines.append(f"置顶：{p.link}号链接 {p.title} 到手价{cur}{price}（划线价{cur}{fmt_money(p.list_price)}）"
                             + (f" 优惠：{deals}" if deals else ""))
            else:
                lines.append(f"Pinned: link {p.link} {p.title} now {cur}{price} (list {cur}{fmt_money(p.list_price)})"
                             + (f" deals: {deals}" if deals else ""))
        if room.coupons_sent:
            titles = {c.campaign_id: c.title for c in room.campaigns}
            sent = [titles.get(cid, cid) for cid in list(dict.fromkeys(reversed(room.coupons_sent)))[:3]]
            lines.append(("已发券：" + "，".join(sent)) if zh else ("Coupons sent: " + ", ".join(sent)))
        lines.extend(self.lines)
        return "\n".join(lines)
