float twice(float x) { return 2.0 * x; }
