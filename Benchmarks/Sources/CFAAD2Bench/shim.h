#include <neaacdec.h>
