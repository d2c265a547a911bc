#!/usr/bin/env python3
"""Makes po/duo-capture.pot from the Swift sources with xgettext, and checks that no user-visible string
escapes translation (issue 41).

xgettext has no Swift parser, so each source is first rewritten, line for line, into C that xgettext reads:
comments dropped, every string literal (single-line, raw, multi-line) turned into a C literal holding the
exact value Swift gives it at run time, so a msgid is the key `tr` looks up. Then:

  extract: xgettext --language=C --keyword=tr --keyword=trn:1,2 --keyword=N_ (and Translator's text/plural)
           -> po/duo-capture.pot (or the path given with --pot)
  check:   fails when (a) a marked literal interpolates with \\(...) (a translation could never match: use
           %s and arguments), or (b) a literal goes straight into one of the sinks named in po/sinks.txt
           (DuoError's constructors, the HUD's notices, ...) without tr(), unless po/untranslated.txt lists
           it (one "file-suffix<TAB>msgid-prefix" per line: deliberate exceptions such as JSON keys).

Usage: Scripts/po-extract.py extract [--pot FILE]
       Scripts/po-extract.py check
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = ["Sources"]
INTERP = "\u00abINTERP\u00bb"  # stands for \(...) in a rewritten literal
MARK_KEYWORDS = ["tr", "trn:1,2", "N_", "text:1", "plural:1,2"]


def swift_files():
    for top in SOURCES:
        for base, dirs, files in os.walk(os.path.join(ROOT, top)):
            dirs.sort()
            for f in sorted(files):
                if f.endswith(".swift"):
                    yield os.path.relpath(os.path.join(base, f), ROOT)


def c_literal(value):
    out = []
    for ch in value:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ord(ch) < 0x20:
            out.append("\\%03o" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


class Rewriter:
    """Swift source -> C-like text with the same line count."""

    def __init__(self, text, path):
        self.s = text
        self.i = 0
        self.path = path
        self.out = []

    def error(self, why):
        line = self.s.count("\n", 0, self.i) + 1
        raise SystemExit("po-extract: %s:%d: %s" % (self.path, line, why))

    def run(self):
        s = self.s
        n = len(s)
        while self.i < n:
            c = s[self.i]
            if s.startswith("//", self.i):
                j = s.find("\n", self.i)
                self.i = n if j < 0 else j
            elif s.startswith("/*", self.i):
                depth, j = 0, self.i
                while j < n:
                    if s.startswith("/*", j):
                        depth += 1
                        j += 2
                    elif s.startswith("*/", j):
                        depth -= 1
                        j += 2
                        if depth == 0:
                            break
                    else:
                        j += 1
                self.out.append("\n" * s.count("\n", self.i, j))
                self.i = j
            elif c == "#" and re.match(r'#+"', s[self.i:]):
                self.literal()
            elif c == '"':
                self.literal()
            elif c == "'":
                self.out.append(" ")  # never a C character literal
                self.i += 1
            else:
                self.out.append(c)
                self.i += 1
        return "".join(self.out)

    def literal(self):
        """Reads one Swift string literal at self.i; writes its value as C literals, one per source line."""
        s = self.s
        hashes = 0
        while s[self.i + hashes] == "#":
            hashes += 1
        start = self.i + hashes
        multi = s.startswith('"""', start)
        close = ('"""' if multi else '"') + "#" * hashes
        j = start + (3 if multi else 1)
        pieces = []  # the literal's raw text with interpolations replaced
        buf = []
        esc = "\\" + "#" * hashes
        while True:
            if j >= len(s):
                self.error("unterminated string literal")
            if s.startswith(close, j):
                j += len(close)
                break
            if not multi and s[j] == "\n":
                self.error("line break in a single-line string literal")
            if s.startswith(esc, j):
                k = j + len(esc)
                e = s[k]
                if e == "(":
                    depth, k = 1, k + 1
                    while depth:
                        if k >= len(s):
                            self.error("unterminated interpolation")
                        if s[k] == '"':  # a literal inside the interpolation: skip it whole
                            sub = Rewriter(s, self.path)
                            sub.i = k
                            sub.literal()
                            k = sub.i
                            continue
                        depth += {"(": 1, ")": -1}.get(s[k], 0)
                        k += 1
                    buf.append(INTERP)
                    j = k
                    continue
                if e == "\n":  # line continuation in a multi-line literal
                    buf.append("\u0000CONT")
                    j = k + 1
                    buf.append("\n")
                    continue
                simple = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "'": "'", "\\": "\\", "0": "\0"}
                if e in simple:
                    buf.append(simple[e])
                    j = k + 1
                    continue
                if e == "u":
                    m = re.match(r"u\{([0-9a-fA-F]+)\}", s[k:])
                    if not m:
                        self.error("bad \\u escape")
                    buf.append(chr(int(m.group(1), 16)))
                    j = k + len(m.group(0))
                    continue
                self.error("unknown escape \\%s" % e)
            buf.append(s[j])
            j += 1
        raw = "".join(buf)
        source_lines = s.count("\n", self.i, j)
        if multi:
            value = self.multiline_value(raw)
        else:
            value = raw
        self.i = j
        # One C literal holding the whole value, then the newlines the source spanned.
        self.out.append(c_literal(value) + "\n" * source_lines)

    def multiline_value(self, raw):
        # raw starts after the opening """ (a newline) and ends with the closing line's indentation.
        if not raw.startswith("\n"):
            self.error("text after an opening \"\"\"")
        body = raw[1:]
        last_nl = body.rfind("\n")
        indent = body[last_nl + 1:] if last_nl >= 0 else body
        lines = body[:last_nl].split("\n") if last_nl >= 0 else []
        value = []
        for idx, line in enumerate(lines):
            if line.startswith(indent):
                line = line[len(indent):]
            elif line.strip() == "":
                line = ""
            cont = line.endswith("\u0000CONT")
            if cont:
                line = line[: -len("\u0000CONT")]
            value.append(line + ("" if cont or idx == len(lines) - 1 else "\n"))
        return "".join(value)


def rewrite_tree(dest):
    for rel in swift_files():
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            text = f.read()
        c = Rewriter(text, rel).run()
        out = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "w", encoding="utf-8") as f:
            f.write(c)


def xgettext(tree, keywords, output, extra=("--add-location=full",)):
    files = list(swift_files())
    cmd = ["xgettext", "--language=C", "--from-code=UTF-8", "--no-wrap", "--sort-by-file",
           "--add-comments=TRANSLATORS:", "--package-name=duo-capture", "--msgid-bugs-address=duo-capture",
           "--output=" + output]
    cmd += ["--keyword"] + ["--keyword=" + k for k in keywords] + list(extra) + files
    r = subprocess.run(cmd, cwd=tree, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("po-extract: xgettext failed: " + r.stderr.strip())
    return r.stderr


def read_pot(path):
    """(msgid, references) pairs of a .pot file."""
    if not os.path.exists(path):
        return []
    entries, refs, msgid, state = [], [], None, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#:"):
                refs += line[2:].split()
            elif line.startswith("msgid "):
                msgid, state = eval_c(line[6:]), "id"
            elif line.startswith('"') and state == "id":
                msgid += eval_c(line)
            elif line.startswith("msgstr") or line.startswith("msgid_plural"):
                if state == "id" and msgid:
                    entries.append((msgid, refs))
                state = None
                if line.startswith("msgstr"):
                    refs = []
            elif not line:
                refs, state = [], None
    return entries


def eval_c(lit):
    body = lit.strip()[1:-1]
    return re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}.get(m.group(1), m.group(1)), body)


def load_list(name):
    path = os.path.join(ROOT, "po", name)
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line and not line.startswith("#"):
                rows.append(line)
    return rows


def extract(pot):
    with tempfile.TemporaryDirectory() as tree:
        rewrite_tree(tree)
        # Files, not lines, in the catalogue: an edit elsewhere in a file does not touch every entry.
        xgettext(tree, MARK_KEYWORDS, os.path.abspath(pot), extra=("--add-location=file",))
    bad = [(m, r) for m, r in read_pot(pot) if INTERP in m]
    if bad:
        for m, r in bad:
            print("po-extract: %s: a marked string interpolates \\(...): use %%s and arguments: %r"
                  % (" ".join(r), m.replace(INTERP, "\\(...)")), file=sys.stderr)
        raise SystemExit(1)


def check():
    problems = 0
    with tempfile.TemporaryDirectory() as tree:
        rewrite_tree(tree)
        pot = os.path.join(tree, "marked.pot")
        xgettext(tree, MARK_KEYWORDS, pot)
        for m, r in read_pot(pot):
            if INTERP in m:
                print("%s: a marked string interpolates \\(...): use %%s and arguments: %r"
                      % (" ".join(r), m.replace(INTERP, "\\(...)")))
                problems += 1
        sinks = load_list("sinks.txt")
        sink_pot = os.path.join(tree, "sinks.pot")
        xgettext(tree, sinks, sink_pot)
        allowed = [tuple(row.split("\t", 1)) for row in load_list("untranslated.txt")]
        for m, refs in read_pot(sink_pot):
            shown = m.replace(INTERP, "\\(...)")
            keep = [r for r in refs if not any(r.split(":")[0].endswith(f) and shown.startswith(p) for f, p in allowed)]
            if keep:
                print("%s: user-visible text not marked for translation (wrap it in tr(...)): %r" % (" ".join(keep), shown))
                problems += 1
    if problems:
        print("po-extract: %d string(s) not translatable; exceptions go in po/untranslated.txt" % problems)
        raise SystemExit(1)
    print("po-extract: every user-visible string reaching a sink in po/sinks.txt is marked")


if __name__ == "__main__":
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if args else 64)
    if args[0] == "extract":
        pot = os.path.join(ROOT, "po", "duo-capture.pot")
        if len(args) == 3 and args[1] == "--pot":
            pot = args[2]
        extract(pot)
    elif args[0] == "check":
        check()
    else:
        raise SystemExit("po-extract: unknown command %s; use extract or check" % args[0])
