"""CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor).

Table driven; the table is built once at import (256 small ints on the Pico).

>>> hex(crc16(b"123456789"))  # the catalogue's check value
'0x29b1'
"""


def _make_table() -> list[int]:
    table: list[int] = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = (crc << 1) ^ 0x1021 if crc & 0x8000 else crc << 1
        table.append(crc & 0xFFFF)
    return table


_TABLE = _make_table()


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """The CRC of `data`, continuing from `crc` (pass a previous result to checksum in pieces)."""
    table = _TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ byte]
    return crc
