// abi_check.cpp — abi_check.c compiled as C++ (c++11 and later), so that C++ programs are shown to
// see the same sizes, alignments, offsets, widths and constants as C programs.
//
// swift-audio-queue. Apache License 2.0.
#include "abi_check.c"
