#include "DemoKit.h"

int demo_kit_answer(int seed) {
    int value = seed;
    for (int round = 0; round < 3; round++) value = value * 1103515245 + 12345;
    return value;
}
