"""pipeline.extract.quantities: numbers, units, hedges and ranges in normalised text."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.extract.quantities import _QUANTITY, Quantity, _unit_of, find_quantities, parse_number
from pipeline.normalize import normalize
from pipeline.records import Qualifier

Q = Qualifier


def quantities(raw: str) -> list[Quantity]:
    """What the extractors see: quantities of the normalised text (same offsets as ``raw``)."""
    return find_quantities(normalize(raw))


def the_quantity(raw: str) -> Quantity:
    """The one quantity with a unit in ``raw`` (bare numbers such as model numbers are ignored)."""
    found = [q for q in quantities(raw) if q.kind != "bare"]
    assert len(found) == 1, found
    return found[0]


def spanned(raw: str, q: Quantity) -> str:
    return raw[q.start:q.end]


# fmt: off
UNIT_CASES = [
    # text                                        span               value    unit       kind
    ("H100 SXM5拥有16,896个CUDA核心",              "16,896个",         16896,   "count",   "count"),
    ("H100 SXM5的显存带宽为3.35TB/s",              "3.35TB/s",         3350,    "GB/s",    "rate"),
    ("MI300X的显存带宽为5.3 TB/s",                 "5.3 TB/s",         5300,    "GB/s",    "rate"),
    ("A100集成了六千九百一十二个CUDA核心",            "六千九百一十二个",   6912,    "count",   "count"),
    ("机房里部署了五千一百二十个MI300X加速器",         "五千一百二十个",     5120,    "count",   "count"),
    ("这块卡的显存带宽为三点三五TB/s",                "三点三五TB/s",      3350,    "GB/s",    "rate"),
    ("Ｌ４０Ｓ配备４８ＧＢ　ＧＤＤＲ６显存",            "４８ＧＢ",           48,      "GB",      "size"),
    ("Ｈ１００的ＴＤＰ为７００Ｗ",                     "７００Ｗ",           700,     "W",       "power"),
    ("Ｈ１００的显存带宽为３．３５ＴＢ／ｓ",             "３．３５ＴＢ／ｓ",     3350,    "GB/s",    "rate"),
    ("新一代互联的带宽为2TB/s",                      "2TB/s",            2000,    "GB/s",    "rate"),
    ("这块网卡的速率为320Gb/s",                      "320Gb/s",          40,      "GB/s",    "rate"),
    ("InfiniBand端口速率400Gbps",                   "400Gbps",          50,      "GB/s",    "rate"),
    ("NVLink提供每秒900GB的互联带宽",                 "每秒900GB",         900,     "GB/s",    "rate"),
    ("A800的显存为80G",                             "80G",              80,      "GB",      "size"),
    ("H100 SXM5的功耗为700W",                       "700W",             700,     "W",       "power"),
    ("这台工作站配了1.5kW电源",                       "1.5kW",            1500,    "W",       "power"),
    ("RTX 4090的整卡功耗为450瓦",                    "450瓦",            450,     "W",       "power"),
    ("RX 6900 XT配有128MB Infinity Cache",         "128MB",            0.128,   "GB",      "size"),
    ("A800于2022年发布",                            "2022年",           2022,    "year",    "year"),
    ("MI300X的显存位宽为8192位",                      "8192位",           8192,    "bit",     "bits"),
    ("H100的FP8算力为1979TFLOPS",                   "1979TFLOPS",       1979,    "TFLOPS",  "tput"),
    ("RTX 4090的加速频率为2.52GHz",                  "2.52GHz",          2520,    "MHz",     "freq"),
    ("L40S的推理速度提升了50%",                       "50%",              50,      "percent", "percent"),
    ("H100的推理吞吐是上一代的30倍",                   "30倍",             30,      "ratio",   "ratio"),
    # operations a second counted with a magnitude word: floating-point ones in TFLOPS, others in TOPS
    ("这张卡每秒可完成12万亿次浮点运算",                "12万亿次浮点运算",   12,      "TFLOPS",  "tput"),
    ("这张卡每秒可完成130万亿次INT8运算",              "130万亿次INT8运算", 130,     "TOPS",    "tput"),
    ("这台超算的峰值是每秒2千万亿次浮点运算",             "2千万亿次浮点运算",  2000,    "TFLOPS",  "tput"),
    ("这个机柜的FP4算力为1.4 EFLOPS",                "1.4 EFLOPS",       1.4e6,   "TFLOPS",  "tput"),
    ("这台超算达到1 ExaFLOPS",                       "1 ExaFLOPS",       1e6,     "TFLOPS",  "tput"),
    ("这张卡的AI算力为3352 AI TOPS",                  "3352 AI TOPS",     3352,    "TOPS",    "tput"),
    # a lowercase w is watts beside a word for power
    ("这张卡的功耗是450w",                           "450w",             450,     "W",       "power"),
]

NO_UNIT_CASES = [
    "FP16和BF16精度",          # digits inside a name
    "HBM3e与GDDR6X显存",
    "第三代Tensor Core",
    "RTX 4090与RX 7900 XTX",   # model numbers are bare numbers
    "70年代的显卡",             # 年代 is a decade, not a year
    "1970年的计算机",           # outside the plausible years
    "循环执行了3次运算",         # a count of operations, with no magnitude, is no throughput
    "这款车售价10w元",           # a lowercase w with no word for power is 万 (ten thousand)
]

IN_BITS_CASES = [
    ("320Gb/s",   True),
    ("400Gbps",   True),
    ("900GB/s",   False),
    ("每秒900GB",  False),
    ("3.35TB/s",  False),
]

RESOLUTION_CASES = [
    ("3.35TB/s",  10.0),      # one step of the last digit, in GB/s
    ("2TB/s",     1000.0),
    ("900GB/s",   100.0),
    ("912GB/s",   1.0),
    ("1.5kW",     100.0),
    ("128MB",     0.001),
    ("三点三五TB/s", 10.0),
]

PARSE_NUMBER_CASES = [
    ("16,896",        16896.0),
    ("3.35",          3.35),
    ("700",           700.0),
    ("两千五百六十",    2560.0),
    ("五千一百二十",    5120.0),
    ("三点三五",        3.35),
    ("一万六千三百八十四", 16384.0),
    ("",              None),
    ("  ",            None),
    ("GB",            None),
    ("12abc",         None),
]

EXACT_CASES = [
    ("RTX 4090的显存为24GB",       "24GB"),
    ("显存达到了80GB",             "80GB"),     # particles alone are no hedge
    ("L40S的功耗是350W",           "350W"),
    ("A100拥有6912个CUDA核心",      "6912个"),
]

UP_TO_CASES = [
    ("H100的显存带宽高达3.35TB/s",  "高达3.35TB/s",  3350),
    ("RTX 4090的功耗最高450W",      "最高450W",      450),
    ("MI300X的显存多达192GB",       "多达192GB",     192),
    ("这块卡的显存高达 80 GB",        "高达 80 GB",    80),
    ("H200的显存最多达到141GB", "最多达到141GB", 141),
]

APPROX_CASES = [
    ("A800的显存带宽约2TB/s",       "约2TB/s",       2000),
    ("T4的功耗在70W左右",            "70W左右",        70),
    ("H100的带宽近3.4TB/s",         "近3.4TB/s",      3400),
    ("L40S的显存大约48GB",           "大约48GB",       48),
    ("互联带宽约为 900GB/s",          "约为 900GB/s",   900),
]

AT_LEAST_CASES = [
    ("MI300X的计算单元超过300个",     "超过300个",      300),
    ("新卡的显存在16GB以上",          "16GB以上",       16),
    ("训练用卡的显存至少24GB",         "至少24GB",       24),
    ("带宽2TB/s以上",               "2TB/s以上",      2000),
    ("RTX 4090拥有200多个张量核心", "200多个", 200),
    ("这张卡的FP16算力为330+ TFLOPS", "330+ TFLOPS", 330),  # "+" after a number, before its unit
]

AT_MOST_CASES = [
    ("T4的功耗不到75W",              "不到75W",        75),
    ("L4的功耗低于80W",              "低于80W",        80),
    ("整卡功耗控制在70W以内",          "70W以内",        70),
    ("A2的功耗不超过60W",             "不超过60W",      60),   # 不超过 is at_most although 超过 is at_least
]

RANGE_CASES = [
    ("显存有8GB到16GB",              "8GB到16GB",              (8, 16),      "GB"),
    ("提供8GB或16GB两种版本",          "8GB或16GB",              (8, 16),      "GB"),
    ("功耗在50W到75W之间",            "50W到75W之间",           (50, 75),     "W"),
    ("带宽在1555GB/s到2039GB/s",     "1555GB/s到2039GB/s",     (1555, 2039), "GB/s"),
    # the unit is written only after the second number
    ("显存为8到16GB",                "8到16GB",                (8, 16),      "GB"),
    ("显存为８ＧＢ～１６ＧＢ",          "８ＧＢ～１６ＧＢ",          (8, 16),      "GB"),
    ("功耗为50W–75W",               "50W–75W",                (50, 75),     "W"),
    ("显存40GB至80GB",               "40GB至80GB",             (40, 80),     "GB"),
    ("功耗为300W-350W", "300W-350W", (300, 350), "W"),
]

FROM_TO_CASES = [
    ("显存从16GB增加到24GB",          [16, 24]),
    ("从40GB到80GB",                [40, 80]),
    ("带宽从2TB/s到3.35TB/s",        [2000, 3350]),
]
# fmt: on


@pytest.mark.parametrize(("text", "span", "value", "unit", "kind"), UNIT_CASES)
def test_value_and_unit(text: str, span: str, value: float, unit: str, kind: str) -> None:
    q = the_quantity(text)
    assert (spanned(text, q), q.unit, q.kind, q.qualifier) == (span, unit, kind, Q.EXACT)
    assert q.value == pytest.approx(value)


@pytest.mark.parametrize("text", NO_UNIT_CASES)
def test_no_quantity_with_a_unit(text: str) -> None:
    assert [q for q in quantities(text) if q.kind != "bare"] == []


@pytest.mark.parametrize(("text", "in_bits"), IN_BITS_CASES)
def test_rates_written_in_bits(text: str, in_bits: bool) -> None:
    q = the_quantity(text)
    assert q.unit == "GB/s"
    assert q.in_bits is in_bits


@pytest.mark.parametrize(("text", "resolution"), RESOLUTION_CASES)
def test_resolution(text: str, resolution: float) -> None:
    assert the_quantity(text).resolution == pytest.approx(resolution)


@pytest.mark.parametrize(("text", "value"), PARSE_NUMBER_CASES)
def test_parse_number(text: str, value: float | None) -> None:
    assert parse_number(text) == (value if value is None else pytest.approx(value))


def _check_qualified(text: str, span: str, value: float, qualifier: Qualifier) -> None:
    q = the_quantity(text)
    assert (spanned(text, q), q.qualifier) == (span, qualifier)
    assert q.value == pytest.approx(value)


@pytest.mark.parametrize(("text", "span"), EXACT_CASES)
def test_exact(text: str, span: str) -> None:
    q = the_quantity(text)
    assert (spanned(text, q), q.qualifier) == (span, Q.EXACT)


@pytest.mark.parametrize(("text", "span", "value"), UP_TO_CASES)
def test_up_to(text: str, span: str, value: float) -> None:
    _check_qualified(text, span, value, Q.UP_TO)


@pytest.mark.parametrize(("text", "span", "value"), APPROX_CASES)
def test_approx(text: str, span: str, value: float) -> None:
    _check_qualified(text, span, value, Q.APPROX)


@pytest.mark.parametrize(("text", "span", "value"), AT_LEAST_CASES)
def test_at_least(text: str, span: str, value: float) -> None:
    _check_qualified(text, span, value, Q.AT_LEAST)


@pytest.mark.parametrize(("text", "span", "value"), AT_MOST_CASES)
def test_at_most(text: str, span: str, value: float) -> None:
    _check_qualified(text, span, value, Q.AT_MOST)


@pytest.mark.parametrize(("text", "span", "bounds", "unit"), RANGE_CASES)
def test_range(text: str, span: str, bounds: tuple[float, float], unit: str) -> None:
    q = the_quantity(text)
    assert (spanned(text, q), q.qualifier, q.unit) == (span, Q.RANGE, unit)
    assert (q.low, q.high) == pytest.approx(bounds)
    assert isinstance(q.value, tuple)


@pytest.mark.parametrize(("text", "values"), FROM_TO_CASES)
def test_from_x_to_y_is_a_change_not_a_range(text: str, values: list[float]) -> None:
    found = [q for q in quantities(text) if q.kind != "bare"]
    assert [q.qualifier for q in found] == [Q.EXACT] * len(values)
    assert [q.value for q in found] == pytest.approx(values)


def test_a_clause_comma_before_four_digits_is_no_thousands_separator() -> None:
    text = "A100的SM数量为108，6912个CUDA核心"
    counts = [q for q in quantities(text) if q.kind == "count"]
    assert [(spanned(text, q), q.value) for q in counts] == [("6912个", 6912)]


def test_arabic_number_with_wan() -> None:
    q = the_quantity("RTX 4090拥有超过1.6万个CUDA核心")
    assert (q.value, q.unit, q.qualifier) == (pytest.approx(16000), "count", Q.AT_LEAST)


def test_variants_separated_by_a_slash() -> None:
    found = [q for q in quantities("A100提供40GB/80GB两个版本") if q.kind == "size"]
    assert [q.value for q in found] == [40, 80] or [(q.low, q.high) for q in found] == [(40, 80)]


def test_huge_numbers_stay_finite() -> None:
    for q in quantities("9" * 400 + "GB"):
        assert math.isfinite(q.low) and math.isfinite(q.high)


# ------------------------------------------------------------------ properties

DOMAIN = st.lists(
    st.sampled_from(
        ["0", "1", "2", "5", "9", ",", ".", " ", "GB", "TB/s", "Gb/s", "MB", "W", "kW", "个", "年", "位",
         "%", "倍", "约", "高达", "最高", "超过", "不到", "以上", "左右", "以内", "之间", "到", "或", "从",
         "-", "~", "每秒", "一", "两", "十", "百", "千", "万", "点", "H100", "A800", "显存", "，", "。",
         "８", "Ｇ", "\n"]),
    max_size=30,
).map("".join)


def _assert_well_formed(text: str) -> None:
    for q in find_quantities(text):
        assert 0 <= q.start <= q.num_start < q.end <= len(text), q
        assert math.isfinite(q.low) and math.isfinite(q.high), q
        assert q.resolution >= 0, q


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_any_text_gives_well_formed_quantities(text: str) -> None:
    _assert_well_formed(text)
    _assert_well_formed(normalize(text))


@settings(max_examples=500, deadline=None)
@given(DOMAIN)
def test_number_heavy_text_gives_well_formed_quantities(text: str) -> None:
    _assert_well_formed(normalize(text))


# hedge -> qualifier; left hedges go before the number, right hedges after the unit
LEFT_HEDGES = {"": Q.EXACT, "高达": Q.UP_TO, "最高": Q.UP_TO, "约": Q.APPROX, "大约": Q.APPROX,
               "近": Q.APPROX, "超过": Q.AT_LEAST, "至少": Q.AT_LEAST, "不到": Q.AT_MOST, "低于": Q.AT_MOST,
               "不超过": Q.AT_MOST}
RIGHT_HEDGES = {"左右": Q.APPROX, "以上": Q.AT_LEAST, "以内": Q.AT_MOST}
# written unit -> (factor to the canonical unit, canonical unit)
UNITS = {"GB": (1.0, "GB"), "MB": (0.001, "GB"), "TB": (1000.0, "GB"), "GB/s": (1.0, "GB/s"),
         "TB/s": (1000.0, "GB/s"), "Gb/s": (0.125, "GB/s"), "W": (1.0, "W"), "kW": (1000.0, "W"),
         "个": (1.0, "count")}


@settings(max_examples=300, deadline=None)
@given(
    hedge=st.sampled_from([*[(h, "") for h in LEFT_HEDGES], *[("", h) for h in RIGHT_HEDGES]]),
    number=st.integers(min_value=1, max_value=999_999),
    grouped=st.booleans(),
    unit=st.sampled_from(sorted(UNITS)),
    wide=st.booleans(),
)
def test_hedge_number_unit_round_trip(hedge: tuple[str, str], number: int, grouped: bool, unit: str,
                                      wide: bool) -> None:
    left, right = hedge
    written = f"{left}{number:,}{unit}{right}" if grouped else f"{left}{number}{unit}{right}"
    if wide:  # full-width digits and letters, read after normalisation
        written = "".join(chr(ord(ch) + 0xFEE0) if ch.isascii() and ch.isalnum() else ch for ch in written)
    text = f"这款显卡的参数是{written}。"
    found = quantities(text)
    assert len(found) == 1, found
    q = found[0]
    factor, canonical = UNITS[unit]
    assert text[q.start:q.end] == written
    assert q.value == pytest.approx(number * factor)
    assert q.unit == canonical
    assert q.qualifier is (RIGHT_HEDGES[right] if right else LEFT_HEDGES[left])


@pytest.mark.parametrize(("text", "expected"), [
    ("功耗70-75W", [(70.0, 75.0)]),  # a hyphen between a bare number and one with a unit
    ("RTX 3060-12GB", [3060.0, 12.0]),  # a model name and its variant, not a range
    ("16到8GB", [16.0, 8.0]),  # descending: two numbers, no range
    ("1到0G", [1.0, 0.0]),
])
def test_ranges_need_an_ascending_pair(text: str, expected: list[object]) -> None:
    assert [q.value for q in find_quantities(normalize(text))] == expected


# ------------------------------------------------------------------ the fast reading is the plain one

def _plain_unit_of(m: re.Match[str]) -> str:
    """The unit's kind as first written: the first unit group (in the pattern's order) that matched."""
    kinds = ("rate", "tput", "freq", "size", "power", "bits", "year", "ratio", "percent", "count")
    return next((kind for kind in kinds if m.group(kind)), "bare")


_PLAIN_QUANTITY = re.compile(_QUANTITY.pattern.split(")(?:", 1)[1][:-1])
UNIT_HEAVY = st.lists(st.sampled_from(["0", "12", "3.5", "1,024", "二", "十", "年代", "多", "余", "万", " ", "GB",
                                        "G", "TB/s", "Gbps", "MB每秒", "TFLOPS", "TOPS", "MHz", "W", "kW", "千瓦",
                                        "bit", "位宽", "位置", "年", "倍", "%", "个", "颗", "A", "x.", "/", "-",
                                        "，"]), max_size=20).map("".join)


@settings(max_examples=500, deadline=None)
@given(UNIT_HEAVY)
def test_the_first_digit_lookahead_and_the_last_group_read_as_the_plain_pattern(text: str) -> None:
    """``_QUANTITY`` (a first-character lookahead in front) finds what the pattern without it finds, and the unit
    kind taken from the last group closed is the one the loop over every unit group finds."""
    assert _QUANTITY.pattern.startswith("(?=[")
    fast, plain = list(_QUANTITY.finditer(text)), list(_PLAIN_QUANTITY.finditer(text))
    assert [(m.span(), m.groupdict()) for m in fast] == [(m.span(), m.groupdict()) for m in plain]
    assert [_unit_of(m)[0] for m in fast] == [_plain_unit_of(m) for m in plain]
