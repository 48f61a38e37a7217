# cmake -DIN=file -DOUT=file.inc -P EmbedBytes.cmake: IN's bytes as a C array
# (static const unsigned char CheckpointScheduleBitcode[]).
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE ${OUT} "static const unsigned char CheckpointScheduleBitcode[] = {${bytes}};\n")
