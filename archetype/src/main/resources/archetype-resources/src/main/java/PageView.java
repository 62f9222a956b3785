package ${package};

/**
 * A page view on the views stream: JSON {@code {"visitor": "ada", "page": "/home", "time":
 * 1767225600000}}, the time in epoch milliseconds.
 */
public record PageView(String visitor, String page, long time) {}
