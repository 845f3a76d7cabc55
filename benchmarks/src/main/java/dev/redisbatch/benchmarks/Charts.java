package dev.redisbatch.benchmarks;

import java.util.List;
import java.util.Locale;

/**
 * Plain SVG charts of ratios, drawn here so that the report needs no external service or
 * script: a line per series over categorical x positions, each point with its interval as
 * a whisker, and a dashed line at 1.00 (parity).
 */
final class Charts {

	private static final String[] COLORS = { "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b" };

	private static final String FONT = "font-family=\"Helvetica, Arial, sans-serif\"";

	private static final int LEFT = 70;

	private static final int TOP = 40;

	private static final int PLOT_WIDTH = 520;

	private static final int PLOT_HEIGHT = 260;

	private static final int LEGEND_WIDTH = 170;

	static final int WIDTH = LEFT + PLOT_WIDTH + LEGEND_WIDTH;

	static final int HEIGHT = TOP + PLOT_HEIGHT + 60;

	private Charts() {
	}

	/**
	 * One panel of ratios.
	 * @param title the panel's title
	 * @param xAxis the x axis label
	 * @param xLabels the x positions' labels
	 * @param series the series, one point per x position (NaN where not measured)
	 * @return the SVG document
	 */
	static String ratios(String title, String xAxis, List<String> xLabels, List<Series> series) {
		double lo = 1.0;
		double hi = 1.0;
		for (Series s : series) {
			for (Point p : s.points()) {
				lo = Math.min(lo, Double.isNaN(p.low()) ? p.mean() : p.low());
				hi = Math.max(hi, Double.isNaN(p.high()) ? p.mean() : p.high());
			}
		}
		double step = (hi - lo > 0.3) ? 0.1 : 0.05;
		lo = Math.floor(lo / step - 0.5) * step;
		hi = Math.ceil(hi / step + 0.5) * step;
		StringBuilder svg = header(WIDTH, HEIGHT, title);
		for (double v = lo; v <= hi + step / 2; v += step) {
			double y = y(v, lo, hi);
			svg.append(line(LEFT, y, LEFT + PLOT_WIDTH, y, "#dddddd", ""));
			svg.append(text(LEFT - 6, y + 4, String.format(Locale.ROOT, "%.2f×", v), "end", 11));
		}
		svg.append(line(LEFT, y(1, lo, hi), LEFT + PLOT_WIDTH, y(1, lo, hi), "#555555", " stroke-dasharray=\"6 4\""));
		for (int i = 0; i < xLabels.size(); i++) {
			svg.append(text(x(i, xLabels.size()), TOP + PLOT_HEIGHT + 18, xLabels.get(i), "middle", 11));
		}
		svg.append(text(LEFT + PLOT_WIDTH / 2.0, TOP + PLOT_HEIGHT + 40, xAxis, "middle", 12));
		svg.append(String.format(Locale.ROOT,
				"<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999999\"/>%n", LEFT, TOP,
				PLOT_WIDTH, PLOT_HEIGHT));
		for (int s = 0; s < series.size(); s++) {
			String color = COLORS[s % COLORS.length];
			double offset = (s - (series.size() - 1) / 2.0) * 4;
			StringBuilder path = new StringBuilder();
			List<Point> points = series.get(s).points();
			for (int i = 0; i < points.size(); i++) {
				Point p = points.get(i);
				if (Double.isNaN(p.mean())) {
					continue;
				}
				double x = x(i, xLabels.size()) + offset;
				path.append((path.length() == 0) ? "M" : " L")
					.append(String.format(Locale.ROOT, "%.1f %.1f", x, y(p.mean(), lo, hi)));
				if (!Double.isNaN(p.low())) {
					svg.append(line(x, y(p.low(), lo, hi), x, y(p.high(), lo, hi), color, ""));
				}
				svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>%n", x,
						y(p.mean(), lo, hi), color));
			}
			svg.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>%n",
					path, color));
			double legendY = TOP + 10 + s * 18;
			svg.append(line(LEFT + PLOT_WIDTH + 16, legendY, LEFT + PLOT_WIDTH + 38, legendY, color, ""));
			svg.append(text(LEFT + PLOT_WIDTH + 44, legendY + 4, series.get(s).name(), "start", 11));
		}
		return svg.append("</svg>\n").toString();
	}

	/**
	 * Panels of {@link #ratios} stacked under a common title, in one document.
	 * @param title the title
	 * @param panels the panels
	 * @return the SVG document
	 */
	static String stack(String title, List<String> panels) {
		StringBuilder svg = header(WIDTH, 30 + panels.size() * HEIGHT, title);
		for (int i = 0; i < panels.size(); i++) {
			svg.append(panels.get(i).replaceFirst("<svg ", "<svg x=\"0\" y=\"" + (30 + i * HEIGHT) + "\" "));
		}
		return svg.append("</svg>\n").toString();
	}

	private static double x(int i, int count) {
		return (count == 1) ? LEFT + PLOT_WIDTH / 2.0 : LEFT + 40 + (PLOT_WIDTH - 80) * i / (double) (count - 1);
	}

	private static double y(double value, double lo, double hi) {
		return TOP + PLOT_HEIGHT * (1 - (value - lo) / (hi - lo));
	}

	private static StringBuilder header(int width, int height, String title) {
		StringBuilder svg = new StringBuilder(String.format(Locale.ROOT,
				"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">%n", width,
				height, width, height));
		svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
		return svg.append(text(width / 2.0, 22, title, "middle", 15));
	}

	private static String line(double x1, double y1, double x2, double y2, String color, String style) {
		return String.format(Locale.ROOT,
				"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1\"%s/>%n", x1, y1,
				x2, y2, color, style);
	}

	private static String text(double x, double y, String text, String anchor, int size) {
		return String.format(Locale.ROOT,
				"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\" %s fill=\"#222222\">%s</text>%n", x, y,
				anchor, size, FONT,
				text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;"));
	}

	/**
	 * A ratio with its interval; NaN where not measured or without an interval.
	 *
	 * @param mean the ratio
	 * @param low the interval's lower end
	 * @param high the interval's upper end
	 */
	record Point(double mean, double low, double high) {

		static final Point NONE = new Point(Double.NaN, Double.NaN, Double.NaN);

	}

	/**
	 * One line of a chart.
	 *
	 * @param name the legend text
	 * @param points one point per x position
	 */
	record Series(String name, List<Point> points) {

	}

}
