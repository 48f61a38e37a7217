// lib_cxx_map.cpp at -O0.
//
// XFAIL: *
// Expected to fail until the memory type analysis (issue 12, item 5) lets a
// pointer to a local int reach differentiated memory: operator[] forwards its
// key as std::tuple<const int&>, and -O0 keeps the tuple in memory, so
// "cannot differentiate 'std::_Head_base<0ul, int const&,
// false>::_Head_base(int const&)': a pointer to memory without a shadow
// (parameter 2 of ..., an __ad_const argument or a mutable global) is stored
// in or merged with differentiated memory". The tree functions, which failed here before, have rows.
// RUN: %clangxx_ad -O0 %S/lib_cxx_map.cpp -o %t.O0 -lm && %run %t.O0
