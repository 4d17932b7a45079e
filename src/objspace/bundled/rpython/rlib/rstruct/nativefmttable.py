"""rpy-lsp's model of `rpython.rlib.rstruct.nativefmttable`: facts about the machine the
program is translated for (x86-64: little-endian, IEEE 754 floats, 8-byte longs)."""

native_is_bigendian = False
native_is_ieee754 = True
native_int_size = 8
