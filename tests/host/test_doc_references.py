"""Every reference to a section of our docs by name (docs/host-link.md, "Frame") names one that exists.

Code, tests and docs point a reader at a section by quoting its heading, or the bold label a paragraph or
list item opens with (**Boot**), or their first words; a section renamed or removed leaves the pointer
dangling, and nothing else notices.
"""
import os
import re

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOPS = ("firmware", "boards", "hostsim", "tools", "tests", "bench", "docs", "README.md", "Makefile")
SKIP_DIRS = {".git", ".venv", "node_modules", "build", "__pycache__"}
TEXT_ENDINGS = (".py", ".md", ".mjs", ".json", ".txt", "Makefile")

# "<name>.md" then, optionally, a backtick and a comma, spaces, and a quoted name on the same line.
REFERENCE = re.compile(r'([A-Za-z0-9_.-]+\.md)`?,?[ \t]*"([A-Za-z0-9][^"\n]{1,119})"')
HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t]*$", re.M)
BOLD = re.compile(r"\*\*([^*\n]+)\*\*")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
# The rules' digest lives outside this repository (../shared/rules/RULES.md): not checked here.
OUTSIDE = {"RULES.md"}


def section_names(text):
    """The names a reference may quote: headings and bold labels, backticks dropped, code blocks left out."""
    text = FENCE.sub("", text)
    names = [m.group(1) for m in HEADING.finditer(text)] + [m.group(1) for m in BOLD.finditer(text)]
    return [name.replace("`", "").rstrip(" .:") for name in names]


def dangling(text, docs):
    """[(line, doc, name)] of text's references that no section of docs ({doc name: its names}) answers;
    a doc that is not in docs is dangling too (name None)."""
    out = []
    for m in REFERENCE.finditer(text):
        doc, name = m.group(1), m.group(2).replace("`", "")
        if doc in OUTSIDE:
            continue
        line = text.count("\n", 0, m.start()) + 1
        names = docs.get(doc)
        if names is None:
            out.append((line, doc, None))
        elif not any(s == name or s.startswith(name) for s in names):
            out.append((line, doc, name))
    return out


def _files():
    for top in TOPS:
        path = os.path.join(REPO, top)
        if os.path.isfile(path):
            yield path
            continue
        for folder, dirs, names in os.walk(path):
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
            for name in names:
                if name.endswith(TEXT_ENDINGS):
                    yield os.path.join(folder, name)


def _docs():
    docs = {}
    for folder in (os.path.join(REPO, "docs"), REPO):
        for name in os.listdir(folder):
            if name.endswith(".md") and name not in docs:
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    docs[name] = section_names(f.read())
    return docs


def test_every_section_reference_names_a_section_that_exists():
    docs = _docs()
    found = []
    for path in _files():
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        rel = os.path.relpath(path, REPO)
        if rel == os.path.join("tests", "host", "test_doc_references.py"):
            continue                    # its own made-up references (the matcher's test)
        found += ["%s:%d: %s, %r" % (rel, line, doc, name) for line, doc, name in dangling(text, docs)]
    assert not found, "references to no section:\n" + "\n".join(found)


def test_the_matcher_finds_a_dangling_reference_and_passes_a_good_one():
    docs = {"guide.md": section_names("# Guide\n## Frame\ntext\n- **Boot**: the lamp test\n```\n## Not one\n```\n")}
    text = ('# see docs/guide.md, "Frame" and guide.md "Boot", guide.md`, "Fra"\n'
            '# docs/guide.md, "Not one"; docs/other.md, "Frame"; open("guide.md"), encoding="utf-8"\n')
    assert dangling(text, docs) == [(2, "guide.md", "Not one"), (2, "other.md", None)]
