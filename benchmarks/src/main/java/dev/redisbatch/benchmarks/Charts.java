package dev.redisbatch.benchmarks;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Plain SVG charts, drawn here so that the report needs no external service or script: a
 * horizontal grouped bar chart and a line chart (linear or logarithmic).
 */
final class Charts {

	private static final String[] COLORS = { "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
			"#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#e7ba52", "#637939" };

	private static final String FONT = "font-family=\"Helvetica, Arial, sans-serif\"";

	private static final Pattern SIZE = Pattern.compile("<svg [^>]*width=\"(\\d+)\" height=\"(\\d+)\"");

	private Charts() {
	}

	/**
	 * A horizontal bar chart: one group of bars per category, one bar per series.
	 * @param title the title
	 * @param axis the value axis label
	 * @param categories the category labels (one row each)
	 * @param series the series
	 * @return the SVG document
	 */
	static String bars(String title, String axis, List<String> categories, List<Series> series) {
		int labelWidth = 380;
		int plotWidth = 560;
		int barHeight = 14;
		int groupGap = 10;
		int top = 60;
		int groupHeight = series.size() * barHeight + groupGap;
		int height = top + categories.size() * groupHeight + 60;
		int width = labelWidth + plotWidth + 130;
		double max = 0;
		for (Series s : series) {
			for (double v : s.values()) {
				if (!Double.isNaN(v)) {
					max = Math.max(max, v);
				}
			}
		}
		double scaleMax = niceCeiling(max);
		StringBuilder svg = header(width, height, title);
		// grid and axis
		for (int i = 0; i <= 5; i++) {
			double value = scaleMax * i / 5;
			double x = labelWidth + plotWidth * i / 5.0;
			svg.append(line(x, top - 5, x, height - 50, "#dddddd"));
			svg.append(text(x, height - 35, compact(value), "middle", 11, "#333333"));
		}
		svg.append(text(labelWidth + plotWidth / 2.0, height - 15, axis, "middle", 12, "#333333"));
		for (int c = 0; c < categories.size(); c++) {
			int y0 = top + c * groupHeight;
			svg.append(text(labelWidth - 8, y0 + series.size() * barHeight / 2.0 + 4, categories.get(c), "end", 12,
					"#111111"));
			for (int s = 0; s < series.size(); s++) {
				double value = series.get(s).values().get(c);
				int y = y0 + s * barHeight;
				if (Double.isNaN(value)) {
					svg.append(text(labelWidth + 4, y + barHeight - 3, "not measured", "start", 10, "#999999"));
					continue;
				}
				double w = Math.max(1, plotWidth * value / scaleMax);
				svg.append(String.format(Locale.ROOT,
						"<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>%n", labelWidth, y, w,
						barHeight - 2, COLORS[s % COLORS.length]));
				svg.append(text(labelWidth + w + 4, y + barHeight - 4, compact(value), "start", 10, "#333333"));
			}
		}
		legend(svg, series, labelWidth, 38);
		return svg.append("</svg>\n").toString();
	}

	/**
	 * A line chart over categorical x positions.
	 * @param title the title
	 * @param xAxis the x axis label
	 * @param yAxis the y axis label
	 * @param xLabels the x positions' labels
	 * @param series the series (NaN where not measured)
	 * @param logY whether the y axis is logarithmic
	 * @return the SVG document
	 */
	static String lines(String title, String xAxis, String yAxis, List<String> xLabels, List<Series> series,
			boolean logY) {
		int left = 90;
		int plotWidth = 560;
		int plotHeight = 380;
		int top = 50;
		int legendWidth = 420;
		int width = left + plotWidth + legendWidth;
		int height = top + plotHeight + 70;
		double min = Double.MAX_VALUE;
		double max = 0;
		for (Series s : series) {
			for (double v : s.values()) {
				if (!Double.isNaN(v) && v > 0) {
					min = Math.min(min, v);
					max = Math.max(max, v);
				}
			}
		}
		if (max == 0) {
			min = 1;
			max = 10;
		}
		double lo;
		double hi;
		if (logY) {
			lo = Math.pow(10, Math.floor(Math.log10(min)));
			hi = Math.pow(10, Math.ceil(Math.log10(max)));
			if (hi <= lo) {
				hi = lo * 10;
			}
		}
		else {
			lo = 0;
			hi = niceCeiling(max);
		}
		StringBuilder svg = header(width, height, title);
		// y grid
		if (logY) {
			for (double v = lo; v <= hi * 1.0001; v *= 10) {
				double y = yOf(v, lo, hi, true, top, plotHeight);
				svg.append(line(left, y, left + plotWidth, y, "#dddddd"));
				svg.append(text(left - 6, y + 4, compact(v), "end", 11, "#333333"));
			}
		}
		else {
			for (int i = 0; i <= 5; i++) {
				double v = hi * i / 5;
				double y = yOf(v, lo, hi, false, top, plotHeight);
				svg.append(line(left, y, left + plotWidth, y, "#dddddd"));
				svg.append(text(left - 6, y + 4, compact(v), "end", 11, "#333333"));
			}
		}
		// x positions
		int count = xLabels.size();
		for (int i = 0; i < count; i++) {
			double x = xOf(i, count, left, plotWidth);
			svg.append(line(x, top, x, top + plotHeight, "#eeeeee"));
			svg.append(text(x, top + plotHeight + 18, xLabels.get(i), "middle", 11, "#333333"));
		}
		svg.append(text(left + plotWidth / 2.0, top + plotHeight + 42, xAxis, "middle", 12, "#333333"));
		svg.append(String.format(Locale.ROOT,
				"<text x=\"18\" y=\"%d\" transform=\"rotate(-90 18 %d)\" text-anchor=\"middle\" font-size=\"12\" %s fill=\"#333333\">%s</text>%n",
				top + plotHeight / 2, top + plotHeight / 2, FONT, escape(yAxis)));
		svg.append(String.format(Locale.ROOT,
				"<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999999\"/>%n", left, top,
				plotWidth, plotHeight));
		for (int s = 0; s < series.size(); s++) {
			int colorIndex = (series.get(s).color() >= 0) ? series.get(s).color() : s;
			String color = COLORS[colorIndex % COLORS.length];
			List<Double> values = series.get(s).values();
			StringBuilder path = new StringBuilder();
			for (int i = 0; i < values.size() && i < count; i++) {
				double v = values.get(i);
				if (Double.isNaN(v) || v <= 0) {
					continue;
				}
				double x = xOf(i, count, left, plotWidth);
				double y = yOf(v, lo, hi, logY, top, plotHeight);
				path.append((path.length() == 0) ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", x, y));
				svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>%n", x, y,
						color));
			}
			if (path.length() > 0) {
				svg.append(String.format(Locale.ROOT,
						"<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s/>%n", path, color,
						series.get(s).dashed() ? " stroke-dasharray=\"6 4\"" : ""));
			}
			double ly = top + 10 + s * 18;
			int lx = left + plotWidth + 20;
			svg.append(String.format(Locale.ROOT,
					"<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"%s/>%n", lx, ly,
					lx + 22, ly, color, series.get(s).dashed() ? " stroke-dasharray=\"6 4\"" : ""));
			svg.append(text(lx + 28, ly + 4, series.get(s).name(), "start", 11, "#111111"));
		}
		return svg.append("</svg>\n").toString();
	}

	/**
	 * Charts stacked one above the other under a common title, in one document.
	 * @param title the title
	 * @param charts the charts, each an SVG document of this class
	 * @return the SVG document
	 */
	static String panels(String title, List<String> charts) {
		int top = 36;
		int width = 0;
		int height = top;
		int[] heights = new int[charts.size()];
		for (int i = 0; i < charts.size(); i++) {
			Matcher size = SIZE.matcher(charts.get(i));
			if (!size.find()) {
				throw new IllegalArgumentException("Not a chart of this class");
			}
			width = Math.max(width, Integer.parseInt(size.group(1)));
			heights[i] = Integer.parseInt(size.group(2));
			height += heights[i];
		}
		StringBuilder svg = header(width, height, title);
		int y = top;
		for (int i = 0; i < charts.size(); i++) {
			svg.append(charts.get(i).replaceFirst("<svg ", "<svg x=\"0\" y=\"" + y + "\" "));
			y += heights[i];
		}
		return svg.append("</svg>\n").toString();
	}

	private static double xOf(int i, int count, int left, int plotWidth) {
		return (count == 1) ? left + plotWidth / 2.0 : left + 30 + (plotWidth - 60) * i / (double) (count - 1);
	}

	private static double yOf(double v, double lo, double hi, boolean log, int top, int plotHeight) {
		double f = log ? (Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo)) : (v - lo) / (hi - lo);
		return top + plotHeight * (1 - f);
	}

	private static void legend(StringBuilder svg, List<Series> series, int x, int y) {
		int offset = 0;
		for (int s = 0; s < series.size(); s++) {
			svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>%n",
					x + offset, y - 10, COLORS[s % COLORS.length]));
			svg.append(text(x + offset + 16, y, series.get(s).name(), "start", 12, "#111111"));
			offset += 30 + series.get(s).name().length() * 7;
		}
	}

	private static StringBuilder header(int width, int height, String title) {
		StringBuilder svg = new StringBuilder();
		svg.append(String.format(Locale.ROOT,
				"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">%n", width,
				height, width, height));
		svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
		svg.append(text(width / 2.0, 22, title, "middle", 15, "#000000"));
		return svg;
	}

	private static String line(double x1, double y1, double x2, double y2, String color) {
		return String.format(Locale.ROOT,
				"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1\"/>%n", x1, y1,
				x2, y2, color);
	}

	private static String text(double x, double y, String text, String anchor, int size, String color) {
		return String.format(Locale.ROOT,
				"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\" %s fill=\"%s\">%s</text>%n", x, y,
				anchor, size, FONT, color, escape(text));
	}

	static String escape(String text) {
		return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
	}

	/**
	 * A number in a few characters: 950, 12.3k, 1.05M.
	 * @param value the number
	 * @return the text
	 */
	static String compact(double value) {
		if (value >= 1_000_000) {
			return String.format(Locale.ROOT, "%.2fM", value / 1_000_000);
		}
		if (value >= 10_000) {
			return String.format(Locale.ROOT, "%.0fk", value / 1_000);
		}
		if (value >= 1_000) {
			return String.format(Locale.ROOT, "%.1fk", value / 1_000);
		}
		return String.format(Locale.ROOT, "%.0f", value);
	}

	private static double niceCeiling(double value) {
		if (value <= 0) {
			return 1;
		}
		double magnitude = Math.pow(10, Math.floor(Math.log10(value)));
		for (double step : new double[] { 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10 }) {
			if (step * magnitude >= value) {
				return step * magnitude;
			}
		}
		return 10 * magnitude;
	}

	/**
	 * One series of a chart.
	 *
	 * @param name the legend text
	 * @param values one value per category or x position, NaN where not measured
	 * @param dashed whether to draw it dashed (a reference line)
	 * @param color the index of its colour, the same in every panel; -1 for its position
	 */
	record Series(String name, List<Double> values, boolean dashed, int color) {

		Series(String name, List<Double> values) {
			this(name, values, false, -1);
		}

		Series(String name, List<Double> values, boolean dashed) {
			this(name, values, dashed, -1);
		}

	}

}
