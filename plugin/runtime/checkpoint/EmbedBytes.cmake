# cmake -DIN=file -DOUT=file.inc [-DNAME=array] -P EmbedBytes.cmake: IN's
# bytes as a C array (static const unsigned char NAME[], by default
# CheckpointScheduleBitcode).
if(NOT NAME)
  set(NAME CheckpointScheduleBitcode)
endif()
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE ${OUT} "static const unsigned char ${NAME}[] = {${bytes}};\n")
