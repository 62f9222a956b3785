package ${package};

/** How many times a page was viewed in a window of a minute, {@code [start, end)} in epoch ms. */
public record PageCount(String page, long start, long end, long views) {}
