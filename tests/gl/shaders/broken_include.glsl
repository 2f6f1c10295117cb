// Line 1
// Line 2
float broken() {
  return undefined_symbol_here;  // line 4: the compiler must report this file and line
}
