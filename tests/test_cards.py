"""Cards: notation in and out, and card sets as masks (shared/RULES.md, shared/RECORD-FORMAT.md)."""

import io

import pytest

from sheepsolve.cards import (ALL_CARDS, POINTS, RANKS, SUITS, Card, CardError, cards_of, format_card, format_cards,
                              mask_of, parse_cards, use_color)

# ---------------------------------------------------------------------------------------------------------------
# The card as an int


def test_index_layout_is_suit_times_8_plus_rank():
    assert SUITS == "CSHD" and RANKS == "ATKQJ987"
    assert len(ALL_CARDS) == 32
    for i, c in enumerate(ALL_CARDS):
        assert int(c) == i
        assert c.suit == SUITS[i // 8] and c.rank == RANKS[i % 8]
        assert Card.make(c.rank, c.suit) is c
        assert Card(i) is c
    assert int(Card.parse("AC")) == 0 and int(Card.parse("7D")) == 31 and int(Card.parse("QH")) == 19


@pytest.mark.parametrize("rank, suit", [("AT", "C"), ("", "C"), ("A", "CS"), ("A", ""), ("T", "X"), ("1", "C"),
                                        (None, "C"), ("a", "c")])
def test_make_takes_one_rank_letter_and_one_suit_letter(rank, suit):
    # a substring test on "ATKQJ987" / "CSHD" would read "AT" or "" as an ace and "CS" as clubs
    with pytest.raises(CardError, match="no card of rank"):
        Card.make(rank, suit)


def test_points_total_120():
    assert POINTS == {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
    assert sum(c.points for c in ALL_CARDS) == 120
    assert [Card.parse(t).points for t in "AS TS KS QS JS 9S 8S 7S".split()] == [11, 10, 4, 3, 2, 0, 0, 0]


@pytest.mark.parametrize("index", [-1, 32, 100])
def test_index_out_of_range(index):
    with pytest.raises(CardError, match="out of range"):
        Card(index)


def test_card_error_is_a_value_error():
    assert issubclass(CardError, ValueError)


# ---------------------------------------------------------------------------------------------------------------
# Reading cards


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_ascii_round_trip_and_lower_case(card):
    assert Card.parse(str(card)) is card
    assert Card.parse(str(card).lower()) is card
    assert Card.parse(str(card)[0] + str(card)[1].lower()) is card
    assert Card.parse(f"  {card}\t") is card


@pytest.mark.parametrize("text, expected", [
    ("10C", "TC"), ("10s", "TS"), ("TH", "TH"), ("th", "TH"), ("10♦", "TD"),
    ("Q♣", "QC"), ("q♣", "QC"), ("J♠", "JS"), ("A♥", "AH"), ("7♦", "7D"), ("t♣", "TC"), ("10♣", "TC"),
])
def test_ten_and_suit_symbols(text, expected):
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("text, expected", [
    # suit letter first: Eichel, Gras (Blatt), Herz, Schellen; Ober = Q, Unter = J, Sau = A, Zehn = T
    ("EO", "QC"), ("GO", "QS"), ("HO", "QH"), ("SO", "QD"),
    ("EU", "JC"), ("BU", "JS"), ("HU", "JH"), ("SU", "JD"),
    ("EA", "AC"), ("GS", "AS"), ("HA", "AH"), ("SA", "AD"), ("SS", "AD"),
    ("EZ", "TC"), ("S10", "TD"), ("HK", "KH"), ("G9", "9S"), ("E8", "8C"), ("S7", "7D"),
    ("eo", "QC"), ("Herz-Sau", "AH"), ("Gras Ober", "QS"), ("Blatt-Unter", "JS"), ("Laub Zehn", "TS"),
    ("Schellen-König", "KD"), ("SCHELLN UNTER", "JD"), ("Eichel_Daus", "AC"), ("herz sieben", "7H"),
])
def test_german_names_with_the_german_option(text, expected):
    assert str(Card.parse(text, german=True)) == expected


@pytest.mark.parametrize("text, expected", [("EO", "QC"), ("Herz-Sau", "AH"), ("Gras Ober", "QS"), ("SU", "JD"),
                                            ("S10", "TD"), ("HA", "AH")])
def test_german_names_read_without_the_option(text, expected):
    """Issue 34: a German card needed --german on every command, though the notations cannot be confused."""
    assert str(Card.parse(text)) == expected
    assert [str(c) for c in parse_cards([text, "AS"])] == [expected, "AS"]


def test_no_card_reads_in_both_notations():
    """French starts with a rank, German with a suit: no text is a card in both (so neither needs an option)."""
    from sheepsolve.cards import _parse_french, _parse_german

    ranks_fr = ["A", "T", "10", "K", "Q", "J", "9", "8", "7"]
    words = [r + s for r in ranks_fr + ["E", "G", "B", "H", "S"] for s in "CSHDAZOUK♣♠♥♦" + "10"]
    words += [s + r for s in "EGBHS" for r in ["A", "S", "Z", "10", "K", "O", "U", "9", "8", "7"]]
    both = [w for w in words if _parse_french(w) is not None and _parse_german(w) is not None]
    assert not both


def test_a_typo_gets_the_hint_of_its_records_notation():
    with pytest.raises(CardError, match="suits E G H S"):
        Card.parse("EX", notation="german")
    with pytest.raises(CardError, match="suits C S H D"):
        Card.parse("EX", notation="french")


@pytest.mark.parametrize("text, suit", [("C", "C"), ("clubs", "C"), ("♣", "C"), ("E", "C"), ("Eichel", "C"),
                                        ("G", "S"), ("Gras", "S"), ("spades", "S"), ("Blatt", "S"), ("H", "H"),
                                        ("Herz", "H"), ("hearts", "H"), ("D", "D"), ("Schellen", "D"),
                                        ("diamonds", "D"), ("♦", "D")])
def test_suits_in_either_notation(text, suit):
    from sheepsolve.cards import parse_suit

    assert parse_suit(text) == suit == parse_suit(text, "german") == parse_suit(text, "french")


def test_the_letter_s_is_decided_by_the_notation_or_refused():
    from sheepsolve.cards import SuitError, parse_suit

    assert parse_suit("S", "german") == "D" and parse_suit("s", "french") == "S"
    with pytest.raises(SuitError, match='write "Schellen" or "spades"'):
        parse_suit("S")
    with pytest.raises(SuitError, match="Eichel, Gras, Herz, Schellen"):
        parse_suit("X")


def test_german_option_still_reads_ascii():
    # "S" alone would be ambiguous, so rank-first ASCII keeps its meaning: AS is the ace of spades ...
    assert str(Card.parse("AS", german=True)) == "AS"
    assert str(Card.parse("KS", german=True)) == "KS"
    assert str(Card.parse("10♣", german=True)) == "TC"
    # ... while suit-first German reads Schellen (diamonds)
    assert str(Card.parse("SA", german=True)) == "AD"
    assert [str(c) for c in parse_cards("EO HU SA qc", german=True)] == ["QC", "JH", "AD", "QC"]


@pytest.mark.parametrize("bad", ["", " ", "X", "Q", "QX", "1C", "11C", "QCX", "ZC", "C Q", "Q♣♣", "10", "6C", "2H",
                                 "Herz-Neun-Sau"])
def test_unknown_cards_give_a_clear_card_error(bad):
    with pytest.raises(CardError, match="unknown card"):
        Card.parse(bad)


@pytest.mark.parametrize("bad", [None, 3, Card.parse("QC"), b"QC"])
def test_non_strings_give_a_card_error(bad):
    with pytest.raises(CardError, match="must be a string"):
        Card.parse(bad)


def test_error_message_says_how_to_write_a_card():
    with pytest.raises(CardError) as e:
        Card.parse("QX")
    assert "'QX'" in str(e.value) and "rank then suit" in str(e.value)
    assert "German" not in str(e.value)


def test_parse_cards_separators_and_iterables():
    assert [str(c) for c in parse_cards("QC JH, AD,,10♣\n7d")] == ["QC", "JH", "AD", "TC", "7D"]
    assert [str(c) for c in parse_cards(["qc", "10H"])] == ["QC", "TH"]
    assert parse_cards("") == [] and parse_cards("  ") == []
    with pytest.raises(CardError, match="'ZZ'"):
        parse_cards("QC ZZ")


# ---------------------------------------------------------------------------------------------------------------
# Writing cards


def test_str_repr_format():
    c = Card.parse("10♠")
    assert str(c) == "TS" and repr(c) == "Card('TS')"
    assert f"{c:>4}|{c:<3}|" == "  TS|TS |"
    assert isinstance(c, int)


def test_format_card_styles():
    assert format_card(Card.parse("QC")) == "QC"
    assert format_card(Card.parse("QC"), "ascii") == "QC"
    assert [format_card(Card.parse(t), "symbols") for t in ("QC", "TS", "AH", "7D")] == ["Q♣", "10♠", "A♥", "7♦"]
    # color: hearts and diamonds red, clubs and spades plain
    assert format_card(Card.parse("AH"), "color") == "\x1b[31mA♥\x1b[0m"
    assert format_card(Card.parse("7D"), "color") == "\x1b[31m7♦\x1b[0m"
    assert format_card(Card.parse("QC"), "color") == "Q♣"
    assert format_card(Card.parse("JS"), "color") == "J♠"


def test_format_cards_and_round_trip_of_symbols():
    cards = parse_cards("QC 7D TS AH")
    assert format_cards(cards) == "QC 7D TS AH"
    assert format_cards(cards, "symbols") == "Q♣ 7♦ 10♠ A♥"
    assert format_cards(cards, sep=",") == "QC,7D,TS,AH"
    assert format_cards([]) == ""
    assert parse_cards(format_cards(cards, "symbols")) == cards
    assert parse_cards(format_cards(ALL_CARDS, "symbols")) == list(ALL_CARDS)


class _Stream(io.StringIO):
    def __init__(self, tty):
        super().__init__()
        self._tty = tty

    def isatty(self):
        return self._tty


def test_use_color_only_on_a_terminal_and_never_with_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_color(_Stream(True)) is True
    assert use_color(_Stream(False)) is False
    monkeypatch.setenv("NO_COLOR", "1")
    assert use_color(_Stream(True)) is False
    monkeypatch.setenv("NO_COLOR", "")  # no-color.org: an empty value does not count
    assert use_color(_Stream(True)) is True


# ---------------------------------------------------------------------------------------------------------------
# Masks


def test_masks():
    assert mask_of([]) == 0 and cards_of(0) == []
    assert mask_of(ALL_CARDS) == (1 << 32) - 1
    assert cards_of((1 << 32) - 1) == list(ALL_CARDS)
    qc, ac, d7 = Card.parse("QC"), Card.parse("AC"), Card.parse("7D")
    assert qc.bit == 1 << 3 and ac.bit == 1 and d7.bit == 1 << 31
    assert mask_of([qc, d7, ac]) == 1 | 1 << 3 | 1 << 31
    assert cards_of(mask_of([d7, qc, ac])) == [ac, qc, d7]  # ascending index
    assert mask_of([qc, qc]) == qc.bit
    assert all(isinstance(c, Card) for c in cards_of(0b1011))


def test_mask_round_trip_on_every_subset_pattern():
    import random
    r = random.Random(7)
    for _ in range(200):
        cards = r.sample(ALL_CARDS, r.randrange(33))
        m = mask_of(cards)
        assert cards_of(m) == sorted(cards)
        assert bin(m).count("1") == len(cards)
        assert mask_of(cards_of(m)) == m


def test_unknown_card_style_is_an_error():
    with pytest.raises(ValueError, match="card style 'fancy'"):
        format_card(Card.parse("QC"), "fancy")


# ---------------------------------------------------------------------------------------------------------------
# Notations for people: German-suited, French, ASCII


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_german_notation_reads_back_with_the_german_option(card):
    from sheepsolve.cards import card_name

    text = format_card(card, "german")
    assert Card.parse(text, german=True) is card
    assert Card.parse(card_name(card, "german"), german=True) is card


def test_german_names_and_colors():
    from sheepsolve.cards import card_name, suit_name, suit_title

    assert format_cards(parse_cards("QC JS AH TD 7D"), "german") == "EO GU HA S10 S7"
    assert [suit_name(s, "german") for s in SUITS] == ["Eichel", "Gras", "Herz", "Schellen"]
    assert [suit_title(s, "symbols") for s in SUITS] == ["♣", "♠", "♥", "♦"]
    assert card_name(Card.parse("AS"), "german") == "Gras-Sau"
    assert card_name(Card.parse("AS"), "ascii") == "ace of spades"
    assert format_card(Card.parse("JS"), "german-color") == "\x1b[32mGU\x1b[0m"
    assert format_card(Card.parse("QC"), "german-color") == "EO"


def test_card_style_defaults_by_family():
    from sheepsolve.cards import card_style, notation_of

    assert card_style(None, "schafkopf") == "german"
    assert card_style(None, "sheepshead") == "symbols"
    assert card_style("french", "schafkopf", color=True) == "color"
    assert card_style("german", "sheepshead", color=True) == "german-color"
    assert card_style("ascii", "schafkopf", color=True) == "ascii"
    assert {notation_of(s) for s in ("symbols", "color")} == {"french"}
    with pytest.raises(ValueError, match="card notation 'fancy'"):
        card_style("fancy")
