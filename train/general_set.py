"""A small built-in general instruction set, so on-policy distillation runs offline (``dataset: builtin``).

The paper distils on Tulu 3; give a local copy of such a set for real runs. These prompts are general
(formatting, counting, rewriting, short knowledge and reasoning, both languages), with IFEval-style verifiable
constraints, and each has a short reference answer that GKD's off-policy part may use. Written for this project.
"""

from __future__ import annotations

GENERAL_SET: tuple[tuple[str, str], ...] = (
    ("Write a haiku about morning tea. Do not use any commas.",
     "Steam curls from the cup\nquiet light on the table\nthe day starts slowly"),
    ("List three primary colors as a JSON array of strings and nothing else.", '["red", "yellow", "blue"]'),
    ("Answer in exactly two sentences: why do leaves change color in autumn?",
     "Trees stop making chlorophyll as days shorten. The green fades and yellow and red pigments show through."),
    ("Rewrite in formal English: 'gonna be late, traffic is crazy'.",
     "I will be late because the traffic is very heavy."),
    ("What is 17 multiplied by 6? Reply with the number only.", "102"),
    ("Give a title in double angular brackets, like <<title>>, for a short poem about rain, then the poem in "
     "four lines.", "<<After the Rain>>\nThe street is a mirror\nclouds drift in puddles\na bird shakes its wings\n"
     "and the air smells new"),
    ("Write the word 'hello' in all capital letters, three times, separated by spaces.", "HELLO HELLO HELLO"),
    ("Summarise in under 20 words: The meeting was moved from Monday to Wednesday because the projector broke.",
     "The meeting moved to Wednesday because the projector broke."),
    ("用一句话介绍长城，不超过30个字。", "长城是中国古代修建的军事防御工程，绵延万里。"),
    ("请用三个要点（用 * 开头）说明多喝水的好处。", "* 促进新陈代谢\n* 帮助调节体温\n* 保持皮肤水润"),
    ("把这句话翻译成英文：今天天气很好。", "The weather is very nice today."),
    ("Name two planets larger than Earth, separated by ' and '.", "Jupiter and Saturn"),
    ("End your answer with the exact phrase 'Is there anything else I can help with?'. What is the boiling point "
     "of water at sea level in Celsius?", "Water boils at 100 degrees Celsius at sea level. Is there anything else "
     "I can help with?"),
    ("Write a sentence about cats in which the letter 'z' does not appear.", "Cats like to sleep in warm sunny spots."),
    ("Respond in lowercase letters only: what is the capital of France?", "the capital of france is paris."),
    ("Write exactly three bullet points in markdown about recycling.",
     "* Sort paper, glass and plastic.\n* Rinse containers first.\n* Check local rules."),
    ("If a train leaves at 3 pm and travels for 2.5 hours, when does it arrive? Answer briefly.", "At 5:30 pm."),
    ("Wrap your entire answer in double quotation marks. What is the largest ocean?",
     '"The Pacific Ocean is the largest ocean."'),
    ("Give one synonym of 'happy' and one antonym, as 'synonym: X; antonym: Y'.", "synonym: joyful; antonym: sad"),
    ("请用不少于两句话回答：为什么要早睡早起？", "早睡早起有助于身体恢复。规律作息也能让白天精力更充沛。"),
    ("Count the vowels in the word 'education' and answer with a number.", "5"),
    ("Write a two-line rhyming couplet about the sea.", "The waves roll in beneath the moon,\nand sing the shore a "
     "silver tune."),
    ("Include the keywords 'budget' and 'plan' in one sentence about saving money.",
     "Make a budget and a plan so you can save a little every month."),
    ("Answer with 'yes' or 'no' only: is a tomato a fruit in botany?", "yes"),
    ("Write a P.S. at the end of a one-line thank-you note to a teacher.",
     "Thank you for your patience and encouragement this year.\nP.S. I finally finished the book you recommended."),
    ("Sort these words alphabetically, comma-separated: pear, apple, mango.", "apple, mango, pear"),
    ("用 JSON 格式给出一本书的书名和作者，键名为 title 和 author。", '{"title": "红楼梦", "author": "曹雪芹"}'),
    ("Explain what a noun is in fewer than 15 words.", "A noun is a word that names a person, place or thing."),
    ("Repeat the request word for word, then answer it: What is 2 plus 2?",
     "What is 2 plus 2?\n2 plus 2 is 4."),
    ("Write a short product-free greeting for a live stream audience in one sentence, no exclamation marks.",
     "Welcome everyone, it is great to have you here tonight."),
    ("Give a four-word motto about teamwork.", "Together we achieve more."),
    ("What day comes two days after Friday? One word.", "Sunday"),
    ("请把“我很高兴认识你”改写得更礼貌一些。", "非常荣幸能认识您。"),
    ("Write a limerick's first line about a cat from Spain.", "There once was a cat from Spain"),
    ("Convert 3 kilometers to meters. Reply as 'N meters'.", "3000 meters"),
    ("Describe the color blue to someone in one sentence without using the words 'sky' or 'sea'.",
     "Blue is the cool, calm color of a clear sapphire or a fresh blueberry."),
    ("Separate two short answers with six asterisks (******): name a fruit, then name a vegetable.",
     "Banana\n******\nCarrot"),
    ("What is the plural of 'mouse'? One word.", "mice"),
    ("Write the numbers one to five in words, separated by hyphens.", "one-two-three-four-five"),
    ("用一句话说明什么是光合作用。", "光合作用是植物利用光能把二氧化碳和水转化为有机物并释放氧气的过程。"),
)


def general_rows() -> list[dict[str, str]]:
    """The built-in set as ``{"prompt", "completion"}`` rows (plain strings)."""
    return [{"prompt": p, "completion": c} for p, c in GENERAL_SET]
