"""The lobby's typed address: what is accepted, and the plain words for what is not."""

import pytest

from gomoku.net.address import parse_address


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("192.168.1.20", ("192.168.1.20", 15515)),
        (" 127.0.0.1:16000 ", ("127.0.0.1", 16000)),
        ("::1", ("::1", 15515)),
        ("[fe80::1]:15516", ("fe80::1", 15516)),
        ("[::1]", ("::1", 15515)),
        ("alice-pc.local", ("alice-pc.local", 15515)),
        ("alice-pc.local.:80", ("alice-pc.local", 80)),
        ("localhost:1", ("localhost", 1)),
        # Typed with a Chinese or Japanese input method on: full-width forms, 。 for a dot.
        ("１２７．０．０．１：１６０００", ("127.0.0.1", 16000)),
        ("127。0。0。1", ("127.0.0.1", 15515)),
        ("ａｌｉｃｅ－ｐｃ．ｌｏｃａｌ", ("alice-pc.local", 15515)),
    ],
)
def test_addresses_players_type_are_accepted(typed, expected):
    assert parse_address(typed) == expected


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("", "type the host's address"),
        ("300.1.1.1", "not a valid IPv4"),
        ("1.2.3", "not a valid IPv4"),
        ("host:0", "from 1 to 65535"),
        ("host:65536", "from 1 to 65535"),
        ("host:http", "must be a number"),
        ("host:", "must be a number"),
        ("[::1", "closing ]"),
        ("[::1]x", "only :port"),
        ("[nothex]:1", "not an IPv6"),
        ("fe80::zz", "not an IPv6"),
        ("bad_name", "not an IP address or a host name"),
        ("-dash.local", "not an IP address or a host name"),
        ("a" * 300, "not an address"),
        ("host\x00", "not an address"),
        ("host:١٢", "must be a number"),  # Arabic-Indic digits pass str.isdigit
    ],
)
def test_bad_addresses_say_what_is_wrong(typed, words):
    with pytest.raises(ValueError, match=words):
        parse_address(typed)


def test_an_ipv6_host_is_shown_in_brackets_beside_a_port():
    from gomoku.net.address import shown_host

    assert shown_host("fe80::1") == "[fe80::1]" and shown_host("192.168.1.20") == "192.168.1.20"
    assert parse_address(f"{shown_host('fe80::1')}:16000") == ("fe80::1", 16000)  # it reads back
