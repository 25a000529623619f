#ifndef DEMOKIT_H
#define DEMOKIT_H

/// Something the app needs from its framework.
int demo_kit_answer(int seed);

#endif
