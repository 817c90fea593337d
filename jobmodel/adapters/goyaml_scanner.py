"""The YAML scanner as go-yaml v2's (scannerc.go, a port of libyaml) where PyYAML's differs, so
that a manifest reads as kubectl reads it: tabs (PyYAML separates tokens and the words of a plain
scalar with spaces only, "Do not use tabs in YAML!"; libyaml reads a tab as a blank wherever it
cannot be indentation, so kubectl reads `image:<TAB>busybox`), double-quoted escapes, tag handles,
block scalar indicators, byte order marks, and how far the scanner looks ahead for a `:`."""

from __future__ import annotations

from typing import Final

import yaml
from yaml.scanner import ScannerError
from yaml.tokens import ScalarToken, TagToken

BREAKS: Final = "\r\n\x85\u2028\u2029"
BLANKS: Final = " \t"
BLANKZ: Final = "\0" + BLANKS + BREAKS  # is_blankz: a blank, a break or the end


# The escapes of a double-quoted scalar (yaml_parser_scan_flow_scalar): `\'` but not `\/`.
ESCAPES: Final = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r", "e": "\x1b",
    " ": " ", '"': '"', "'": "'", "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029",
}  # fmt: skip
ESCAPE_LENGTHS: Final = {"x": 2, "u": 4, "U": 8}
HEX_DIGITS: Final = "0123456789ABCDEFabcdef"
HANDLE_CHARACTERS: Final = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-")  # is_alpha


class GoScanningLoader(yaml.SafeLoader):
    """PyYAML's safe loader with the methods of its scanner that go-yaml v2 reads otherwise;
    each names the go-yaml function it follows."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        # Per open flow collection: the number of its first token, and whether a simple key was
        # saved inside it.
        self._collection_starts: list[int] = []
        self._keys_inside: list[bool] = []
        # Keys whose token opens an empty flow collection: they no longer make the scanner look
        # ahead for a `:` (below).
        self._no_lookahead: set[int] = set()

    def fetch_flow_collection_start(self, token_class: type[yaml.Token]) -> None:
        start = self.tokens_taken + len(self.tokens)
        super().fetch_flow_collection_start(token_class)
        self._collection_starts.append(start)
        self._keys_inside.append(False)

    def save_possible_simple_key(self) -> None:
        if self.allow_simple_key and self._keys_inside:
            self._keys_inside[-1] = True
        super().save_possible_simple_key()

    def fetch_flow_collection_end(self, token_class: type[yaml.Token]) -> None:
        """yaml_parser_decrease_flow_level forgets the simple key of the level's last token
        number (simple_keys_by_tok): where no key was saved inside the collection, that is the
        number of the token that opened it, whose own key then no longer holds the scanner
        (yaml_parser_fetch_more_tokens): after `[]` or `{}` it reads one token, not on to the
        line's end for a `:` (a `:` still makes the collection a key)."""
        super().fetch_flow_collection_end(token_class)
        if self._collection_starts:
            start, keys_inside = self._collection_starts.pop(), self._keys_inside.pop()
            if not keys_inside:
                self._no_lookahead.add(start)

    def next_possible_simple_key(self) -> int | None:
        if not self._no_lookahead:
            return super().next_possible_simple_key()  # type: ignore[no-untyped-call, no-any-return]
        numbers = [key.token_number for key in self.possible_simple_keys.values() if key.token_number not in self._no_lookahead]
        return min(numbers, default=None)

    def scan_flow_scalar_non_spaces(self, double: bool, start_mark: yaml.Mark) -> list[str]:
        """The characters of a quoted scalar up to a blank, a break or its end
        (yaml_parser_scan_flow_scalar): go-yaml's escapes, and no escaped surrogate or code
        point beyond U+10FFFF."""
        chunks: list[str] = []
        while True:
            length = 0
            while self.peek(length) not in "'\"\\" + BLANKZ:
                length += 1
            if length:
                chunks.append(self.prefix(length))
                self.forward(length)
            ch = self.peek()
            if not double and ch == "'" and self.peek(1) == "'":
                chunks.append("'")
                self.forward(2)
            elif (double and ch == "'") or (not double and ch in '"\\'):
                chunks.append(ch)
                self.forward()
            elif double and ch == "\\":
                self.forward()
                chunks.extend(self._escaped(start_mark))
            else:
                return chunks

    def _escaped(self, start_mark: yaml.Mark) -> list[str]:
        """What follows a backslash in a double-quoted scalar."""
        ch = self.peek()
        if ch in ESCAPES:
            self.forward()
            return [ESCAPES[ch]]
        if ch in ESCAPE_LENGTHS:
            length = ESCAPE_LENGTHS[ch]
            self.forward()
            if any(self.peek(k) not in HEX_DIGITS for k in range(length)):
                raise ScannerError("while parsing a quoted scalar", start_mark, "did not find expected hexdecimal number", self.get_mark())
            code = int(self.prefix(length), 16)
            if 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
                raise ScannerError("while parsing a quoted scalar", start_mark, "found invalid Unicode character escape code", self.get_mark())
            self.forward(length)
            return [chr(code)]
        if ch in BREAKS:
            self.scan_line_break()  # type: ignore[no-untyped-call]
            return list(self.scan_flow_scalar_breaks(True, start_mark))
        raise ScannerError("while parsing a quoted scalar", start_mark, "found unknown escape character", self.get_mark())

    def scan_to_next_token(self) -> None:
        """yaml_parser_scan_to_next_token: tabs separate tokens in the flow context and where no
        simple key may start (after a key's `:`, a tag, an anchor), not only spaces."""
        if self.index == 0 and self.peek() == "\ufeff":
            # The reader's encoding detection drops a leading byte order mark, and the scanner a
            # second one (is_bom reads the buffer's start; it then also drops the first character
            # of later lines, which the model does not follow: docs/validation.md).
            self.forward(2 if self.peek(1) == "\ufeff" else 1)
            self.column = 1 if self.index == 2 else 0
        while True:
            while self.peek() == " " or (self.peek() == "\t" and (self.flow_level or not self.allow_simple_key)):
                self.forward()
            if self.peek() == "#":
                while self.peek() not in "\0" + BREAKS:
                    self.forward()
            if not self.scan_line_break():  # type: ignore[no-untyped-call]
                return
            if not self.flow_level:
                self.allow_simple_key = True

    def scan_plain(self) -> ScalarToken:
        """yaml_parser_scan_plain_scalar: words joined by spaces and tabs, lines folded; a tab in
        the indentation of a continuation line is an error."""
        chunks: list[str] = []
        whitespaces = leading_break = trailing_breaks = ""
        leading_blanks = False
        indent = self.indent + 1
        start_mark = end_mark = self.get_mark()
        while True:
            if self.column == 0 and self.prefix(3) in ("---", "...") and self.peek(3) in BLANKZ:
                break
            if self.peek() == "#":
                break
            length = 0
            while (ch := self.peek(length)) not in BLANKZ:
                if (ch == ":" and self.peek(length + 1) in BLANKZ) or (self.flow_level and ch in ",?[]{}"):
                    break
                length += 1
            if length:
                if leading_blanks:
                    # Folding: a single line break is a space, more keep all but the first.
                    chunks.append((trailing_breaks or " ") if leading_break == "\n" else leading_break + trailing_breaks)
                    leading_break = trailing_breaks = ""
                    leading_blanks = False
                elif whitespaces:
                    chunks.append(whitespaces)
                    whitespaces = ""
                chunks.append(self.prefix(length))
                self.forward(length)
                end_mark = self.get_mark()
            if self.peek() not in BLANKS + BREAKS:
                break
            while (ch := self.peek()) in BLANKS + BREAKS:
                if ch in BLANKS:
                    length = 0
                    while (blank := self.peek(length)) in BLANKS:
                        if leading_blanks and blank == "\t" and self.column + length < indent:
                            self.forward(length)
                            raise ScannerError(
                                "while scanning a plain scalar", start_mark, "found a tab character that violates indentation", self.get_mark()
                            )
                        length += 1
                    if not leading_blanks:
                        whitespaces += self.prefix(length)
                    self.forward(length)
                elif not leading_blanks:
                    whitespaces = ""
                    leading_break = self.scan_line_break()  # type: ignore[no-untyped-call]
                    leading_blanks = True
                else:
                    trailing_breaks += self.scan_line_break()  # type: ignore[no-untyped-call]
            if not self.flow_level and self.column < indent:
                break
        if leading_blanks:
            self.allow_simple_key = True
        return ScalarToken("".join(chunks), True, start_mark, end_mark)

    def scan_tag(self) -> TagToken:
        """yaml_parser_scan_tag: `!<uri>`, `!handle!suffix` (a handle of letters, digits, `_`
        and `-`), or else `!` and a URI (`!foo`, `!~!`) or nothing (`!`), ended by any blank (a
        tab too)."""
        start_mark = self.get_mark()
        if self.peek(1) == "<":
            self.forward(2)
            handle, suffix = None, self.scan_tag_uri("tag", start_mark)
            if self.peek() != ">":
                raise ScannerError("while parsing a tag", start_mark, f"expected '>', but found {self.peek()!r}", self.get_mark())
            self.forward()
        else:
            length = 1
            while self.peek(length) in HANDLE_CHARACTERS:
                length += 1
            if self.peek(length) == "!":
                handle = self.prefix(length + 1)
                self.forward(length + 1)
                suffix = self.scan_tag_uri("tag", start_mark)
            else:
                self.forward()
                handle, suffix = (None, "!") if self.peek() in BLANKZ else ("!", self.scan_tag_uri("tag", start_mark))
        if self.peek() not in BLANKZ:
            raise ScannerError("while scanning a tag", start_mark, f"expected ' ', but found {self.peek()!r}", self.get_mark())
        return TagToken((handle, suffix), start_mark, self.get_mark())

    def scan_block_scalar_indicators(self, start_mark: yaml.Mark) -> tuple[bool | None, int | None]:
        """The chomping and indentation indicators of a block scalar (yaml_parser_scan_block_scalar),
        in either order; what follows them is the ignored line's to check (a tab or a `#` may)."""
        chomping: bool | None = None
        increment: int | None = None
        for _ in range(2):
            ch = self.peek()
            if ch in "+-" and chomping is None:
                chomping = ch == "+"
            elif ch in "0123456789" and increment is None:
                if ch == "0":
                    raise ScannerError("while scanning a block scalar", start_mark, "found an indentation indicator equal to 0", self.get_mark())
                increment = int(ch)
            else:
                break
            self.forward()
        return chomping, increment

    def scan_block_scalar_indentation(self) -> tuple[list[str], int, yaml.Mark]:
        """yaml_parser_scan_block_scalar_breaks before the indentation is known (the deepest of
        the leading empty lines' and the first line's): the line breaks, that indentation and
        where they end; a tab in it is an error."""
        breaks: list[str] = []
        max_indent, end_mark = 0, self.get_mark()
        while True:
            while self.peek() == " ":
                self.forward()
            max_indent = max(max_indent, self.column)
            if not self._block_scalar_line_break(breaks, indentation=True):
                return breaks, max_indent, end_mark
            end_mark = self.get_mark()

    def scan_block_scalar_breaks(self, indent: int) -> tuple[list[str], yaml.Mark]:
        """yaml_parser_scan_block_scalar_breaks once the indentation is known: a tab within it
        is an error."""
        breaks: list[str] = []
        end_mark = self.get_mark()
        while True:
            while self.column < indent and self.peek() == " ":
                self.forward()
            if not self._block_scalar_line_break(breaks, indentation=self.column < indent):
                return breaks, end_mark
            end_mark = self.get_mark()

    def _block_scalar_line_break(self, breaks: list[str], *, indentation: bool) -> bool:
        """After a block scalar's indentation spaces: a tab still within the indentation is an
        error; a line break is read into `breaks` (True), anything else ends them (False)."""
        if indentation and self.peek() == "\t":
            raise ScannerError(
                "while scanning a block scalar", None, "found a tab character where an indentation space is expected", self.get_mark()
            )
        if self.peek() not in BREAKS:
            return False
        breaks.append(self.scan_line_break())  # type: ignore[no-untyped-call]
        return True

    def scan_block_scalar_ignored_line(self, start_mark: yaml.Mark) -> None:
        """The rest of a block scalar's first line (yaml_parser_scan_block_scalar): blanks and a
        comment."""
        while self.peek() in BLANKS:
            self.forward()
        if self.peek() == "#":
            while self.peek() not in "\0" + BREAKS:
                self.forward()
        if self.peek() not in "\0" + BREAKS:
            raise ScannerError(
                "while scanning a block scalar", start_mark, f"expected a comment or a line break, but found {self.peek()!r}", self.get_mark()
            )
        self.scan_line_break()  # type: ignore[no-untyped-call]
