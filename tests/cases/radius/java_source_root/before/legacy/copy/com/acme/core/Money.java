// a stray copy outside any source root: no package line
public class Money {}
