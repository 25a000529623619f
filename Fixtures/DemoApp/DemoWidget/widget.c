// The app extension's executable (a real one would call NSExtensionMain).
static int widget_lines = 3;

int main(void) {
    int total = 0;
    for (int line = 0; line < widget_lines; line++) total += line * 7;
    return total;
}
