package dev.cuckoo.benchmarks;

import de.erichseifert.vectorgraphics2d.VectorGraphics2D;
import de.erichseifert.vectorgraphics2d.svg.SVGProcessor;
import de.erichseifert.vectorgraphics2d.util.PageSize;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Shape;
import java.awt.font.FontRenderContext;
import java.awt.geom.AffineTransform;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * A chart of the comparison's results: groups of bars, one per category, or points (joined by
 * lines, if asked) against a numeric x axis, written as PNG and as SVG from one drawing.
 */
final class Chart {
  /*
   * Why not a chart library: XChart, which drew these before, turns every piece of text into an
   * outline path (so an SVG weighed about 650 KB and held no text a reader could search or copy)
   * and drops every other category label when it judges they would crowd. Here text is drawn with
   * drawString, which VectorGraphics2D writes as an SVG <text> element, and every category label
   * is drawn, turned 45 degrees (or 90 where groups are narrow) and given the room below the plot
   * that its length needs. Layout measures text with one font render context, not the target's,
   * so the PNG and the SVG are laid out alike.
   */

  /** How a point is marked. */
  enum Marker { CIRCLE, SQUARE, DIAMOND, NONE }

  @SuppressWarnings("ArrayRecordComponent") // a drawing's input, never compared
  private record Series(String name, double[] x, double[] y, Marker marker, boolean dashed, Color color) {}

  /**
   * A category label's place: its anchor (where the label ends, below its group), its angle in
   * degrees counterclockwise, and the outline of the box it is drawn in.
   */
  record LabelPlace(String text, double x, double y, double angle, Shape box) {}

  private static final Color[] PALETTE = {
      new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728), new Color(0x9467bd),
      new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f), new Color(0xbcbd22), new Color(0x17becf)};
  // Not 12: VectorGraphics2D leaves out the size of its default 12-point font, and an SVG viewer then uses its own (16px).
  private static final Font FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 13);
  private static final Font TITLE_FONT = new Font(Font.SANS_SERIF, Font.BOLD, 15);
  private static final FontRenderContext MEASURE = new FontRenderContext(null, true, true);
  private static final int PAD = 12;
  private static final int TICK_LABEL_GAP = 6;

  private final int width;
  private final int height;
  private final String title;
  private final String xTitle;
  private final String yTitle;
  private final List<String> categories;
  private final boolean logX;
  private final boolean logY;
  private final boolean lines;
  private final List<Series> series = new ArrayList<>();

  private Chart(int width, int height, String title, String xTitle, String yTitle, List<String> categories,
      boolean logX, boolean logY, boolean lines) {
    this.width = width;
    this.height = height;
    this.title = title;
    this.xTitle = xTitle;
    this.yTitle = yTitle;
    this.categories = categories;
    this.logX = logX;
    this.logY = logY;
    this.lines = lines;
  }

  /** A chart of bars: one group per category, one bar per series in each. */
  static Chart bars(int width, int height, String title, String yTitle, List<String> categories) {
    return new Chart(width, height, title, "", yTitle, List.copyOf(categories), false, false, false);
  }

  /** A chart of points against a numeric x, joined by lines if {@code lines}. */
  static Chart points(int width, int height, String title, String xTitle, String yTitle, boolean logX, boolean logY,
      boolean lines) {
    return new Chart(width, height, title, xTitle, yTitle, null, logX, logY, lines);
  }

  /** Adds a series of bars, one value per category. */
  Chart bars(String name, double[] values) {
    if (values.length != categories.size()) {
      throw new IllegalArgumentException(name + ": " + values.length + " values for " + categories.size() + " categories");
    }
    series.add(new Series(name, null, values.clone(), Marker.NONE, false, PALETTE[series.size() % PALETTE.length]));
    return this;
  }

  /**
   * Adds a series of points; a {@code dashed} one takes the colour of the series before it (the
   * same contender measured another way), any other the next colour.
   */
  Chart points(String name, double[] x, double[] y, Marker marker, boolean dashed) {
    long solid = series.stream().filter(s -> !s.dashed()).count();
    Color color = dashed && !series.isEmpty() ? series.get(series.size() - 1).color()
        : PALETTE[(int) (solid % PALETTE.length)];
    series.add(new Series(name, x.clone(), y.clone(), marker, dashed, color));
    return this;
  }

  /** Writes {@code name.png} and {@code name.svg} into {@code dir}. */
  void save(Path dir, String name) throws IOException {
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setRenderingHint(RenderingHints.KEY_FRACTIONALMETRICS, RenderingHints.VALUE_FRACTIONALMETRICS_ON);
    paint(g);
    g.dispose();
    ImageIO.write(image, "png", dir.resolve(name + ".png").toFile());
    VectorGraphics2D svg = new VectorGraphics2D();
    paint(svg);
    try (OutputStream out = Files.newOutputStream(dir.resolve(name + ".svg"))) {
      new SVGProcessor().getDocument(svg.getCommands(), new PageSize(0, 0, width, height)).writeTo(out);
    }
  }

  // ---------------------------------------------------------------- layout

  private static double textWidth(String s, Font font) {
    return font.getStringBounds(s, MEASURE).getWidth();
  }

  private static double lineHeight(Font font) {
    return font.getLineMetrics("Xg", MEASURE).getHeight();
  }

  private double legendWidth() {
    double w = 0;
    for (Series s : series) {
      w = Math.max(w, textWidth(s.name(), FONT));
    }
    return w + 40;
  }

  /** The plot area: what is left after the title, axis titles, tick labels and legend. */
  private Rectangle2D plot() {
    double top = PAD + lineHeight(TITLE_FONT) + PAD;
    double left = PAD + lineHeight(FONT) + PAD + maxYLabelWidth() + TICK_LABEL_GAP;
    if (categories != null) {
      // The first category's label, turned, reaches left of its group: keep it in the image.
      left = Math.max(left, PAD + textWidth(categories.get(0), FONT) * Math.cos(Math.toRadians(categoryAngle())));
    }
    double right = width - PAD - legendWidth() - PAD;
    double bottom = height - PAD - (xTitle.isEmpty() ? 0 : lineHeight(FONT) + PAD) - xLabelDepth();
    return new Rectangle2D.Double(left, top, right - left, bottom - top);
  }

  private double maxYLabelWidth() {
    double w = 0;
    for (double t : Ticks.of(yRange(), logY)) {
      w = Math.max(w, textWidth(Ticks.label(t), FONT));
    }
    return w;
  }

  /** The depth below the plot that the x tick labels take. */
  private double xLabelDepth() {
    if (categories == null) {
      return TICK_LABEL_GAP + lineHeight(FONT);
    }
    double angle = Math.toRadians(categoryAngle());
    double depth = 0;
    for (String c : categories) {
      depth = Math.max(depth, textWidth(c, FONT) * Math.sin(angle) + lineHeight(FONT) * Math.cos(angle));
    }
    return TICK_LABEL_GAP + depth;
  }

  /**
   * 45 degrees where a group is wide enough for labels at that angle not to touch (the distance
   * between two parallel labels is the group's width times sin 45), else 90.
   */
  private double categoryAngle() {
    double group = (width - 2 * PAD - legendWidth() - 120) / (double) categories.size();
    return group * Math.sin(Math.toRadians(45)) >= 1.2 * lineHeight(FONT) ? 45 : 90;
  }

  /** @return where each category label goes: every one of them, in order */
  List<LabelPlace> categoryLabels() {
    Rectangle2D p = plot();
    double group = p.getWidth() / categories.size();
    double angle = categoryAngle();
    List<LabelPlace> places = new ArrayList<>();
    for (int i = 0; i < categories.size(); i++) {
      String text = categories.get(i);
      double x = p.getX() + group * (i + 0.5);
      double y = p.getMaxY() + TICK_LABEL_GAP;
      AffineTransform at = AffineTransform.getTranslateInstance(x, y);
      at.rotate(-Math.toRadians(angle));
      // The label ends at the tick: drawn from -width, its top at the anchor.
      Rectangle2D box = new Rectangle2D.Double(-textWidth(text, FONT), 0, textWidth(text, FONT), lineHeight(FONT));
      places.add(new LabelPlace(text, x, y, angle, at.createTransformedShape(box)));
    }
    return places;
  }

  private double[] yRange() {
    return dataRange(false);
  }

  private double[] xRange() {
    return dataRange(true);
  }

  /** @return the axis range that holds every series' x (or y) values */
  private double[] dataRange(boolean ofX) {
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (Series s : series) {
      for (double v : ofX ? s.x() : s.y()) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
    return ofX ? range(lo, hi, logX, false) : range(lo, hi, logY, categories != null);
  }

  private static double[] range(double lo, double hi, boolean log, boolean fromZero) {
    if (!(lo <= hi)) {
      return new double[] {log ? 1 : 0, log ? 10 : 1};
    }
    if (log) {
      return new double[] {Math.pow(10, Math.floor(Math.log10(lo))), Math.pow(10, Math.ceil(Math.log10(hi)))};
    }
    double step = Ticks.step((hi - (fromZero ? 0 : lo)) / 8);
    // Points keep half a step from the frame; bars stand on 0.
    double from = fromZero ? 0 : Math.floor((lo - step / 2) / step) * step;
    if (lo >= 0) {
      from = Math.max(0, from); // no negative stretch under values that cannot be negative
    }
    double to = Math.ceil((hi + (fromZero ? 0 : step / 2)) / step) * step;
    return new double[] {from, to > from ? to : from + step};
  }

  private static double scale(double v, double[] range, boolean log, double from, double length) {
    double t = log ? (Math.log10(v) - Math.log10(range[0])) / (Math.log10(range[1]) - Math.log10(range[0]))
        : (v - range[0]) / (range[1] - range[0]);
    return from + t * length;
  }

  // ---------------------------------------------------------------- drawing

  private void paint(Graphics2D g) {
    g.setColor(Color.WHITE);
    g.fill(new Rectangle2D.Double(0, 0, width, height));
    Rectangle2D p = plot();
    double[] yr = yRange();
    g.setFont(TITLE_FONT);
    g.setColor(Color.BLACK);
    g.drawString(title, (float) ((width - textWidth(title, TITLE_FONT)) / 2), (float) (PAD + ascent(TITLE_FONT)));
    g.setFont(FONT);
    // y axis: grid, ticks, title
    for (double t : Ticks.of(yr, logY)) {
      double y = p.getMaxY() - scale(t, yr, logY, 0, p.getHeight());
      g.setColor(new Color(0xdddddd));
      g.draw(new Line2D.Double(p.getX(), y, p.getMaxX(), y));
      g.setColor(Color.BLACK);
      String label = Ticks.label(t);
      g.drawString(label, (float) (p.getX() - TICK_LABEL_GAP - textWidth(label, FONT)), (float) (y + ascent(FONT) / 2 - 1));
    }
    AffineTransform saved = g.getTransform();
    g.translate(p.getX() - TICK_LABEL_GAP - maxYLabelWidth() - PAD, p.getCenterY() + textWidth(yTitle, FONT) / 2);
    g.rotate(-Math.PI / 2);
    g.drawString(yTitle, 0f, 0f);
    g.setTransform(saved);
    if (categories != null) {
      paintBars(g, p, yr);
    } else {
      paintPoints(g, p, yr);
    }
    g.setColor(Color.BLACK);
    g.draw(new Rectangle2D.Double(p.getX(), p.getY(), p.getWidth(), p.getHeight()));
    paintLegend(g, p);
  }

  private static double ascent(Font font) {
    return font.getLineMetrics("Xg", MEASURE).getAscent();
  }

  private void paintBars(Graphics2D g, Rectangle2D p, double[] yr) {
    double group = p.getWidth() / categories.size();
    double bar = group * 0.8 / series.size();
    for (int i = 0; i < categories.size(); i++) {
      double x0 = p.getX() + group * i + group * 0.1;
      for (int s = 0; s < series.size(); s++) {
        double v = series.get(s).y()[i];
        double h = scale(v, yr, false, 0, p.getHeight());
        g.setColor(series.get(s).color());
        g.fill(new Rectangle2D.Double(x0 + bar * s, p.getMaxY() - h, bar, h));
      }
    }
    g.setColor(Color.BLACK);
    for (LabelPlace l : categoryLabels()) {
      AffineTransform saved = g.getTransform();
      g.translate(l.x(), l.y());
      g.rotate(-Math.toRadians(l.angle()));
      g.drawString(l.text(), (float) -textWidth(l.text(), FONT), (float) ascent(FONT));
      g.setTransform(saved);
    }
  }

  private void paintPoints(Graphics2D g, Rectangle2D p, double[] yr) {
    double[] xr = xRange();
    for (double t : Ticks.of(xr, logX)) {
      double x = scale(t, xr, logX, p.getX(), p.getWidth());
      g.setColor(new Color(0xdddddd));
      g.draw(new Line2D.Double(x, p.getY(), x, p.getMaxY()));
      g.setColor(Color.BLACK);
      String label = Ticks.label(t);
      g.drawString(label, (float) (x - textWidth(label, FONT) / 2), (float) (p.getMaxY() + TICK_LABEL_GAP + ascent(FONT)));
    }
    g.drawString(xTitle, (float) (p.getCenterX() - textWidth(xTitle, FONT) / 2), (float) (height - PAD));
    Shape clip = g.getClip();
    g.clip(p);
    for (int s = 0; s < series.size(); s++) {
      Series ser = series.get(s);
      g.setColor(ser.color());
      g.setStroke(stroke(ser));
      Path2D path = new Path2D.Double();
      for (int i = 0; i < ser.x().length; i++) {
        double x = scale(ser.x()[i], xr, logX, p.getX(), p.getWidth());
        double y = p.getMaxY() - scale(ser.y()[i], yr, logY, 0, p.getHeight());
        if (i == 0) {
          path.moveTo(x, y);
        } else {
          path.lineTo(x, y);
        }
        g.fill(marker(ser.marker(), x, y, lines ? 6 : 10));
      }
      if (lines) {
        g.draw(path);
      }
    }
    g.setStroke(new BasicStroke(1f));
    g.setClip(clip);
  }

  private static BasicStroke stroke(Series s) {
    return s.dashed() ? new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f)
        : new BasicStroke(1.5f);
  }

  private static Shape marker(Marker m, double x, double y, double size) {
    double r = size / 2;
    return switch (m) {
      case CIRCLE -> new Ellipse2D.Double(x - r, y - r, size, size);
      case SQUARE -> new Rectangle2D.Double(x - r, y - r, size, size);
      case DIAMOND -> {
        Path2D d = new Path2D.Double();
        d.moveTo(x, y - r);
        d.lineTo(x + r, y);
        d.lineTo(x, y + r);
        d.lineTo(x - r, y);
        d.closePath();
        yield d;
      }
      case NONE -> new Rectangle2D.Double(x, y, 0, 0);
    };
  }

  private void paintLegend(Graphics2D g, Rectangle2D p) {
    double x = p.getMaxX() + PAD;
    double y = p.getY();
    double row = lineHeight(FONT) + 4;
    for (int s = 0; s < series.size(); s++) {
      Series ser = series.get(s);
      g.setColor(ser.color());
      double middle = y + row * s + row / 2;
      if (categories != null) {
        g.fill(new Rectangle2D.Double(x, y + row * s + 2, 20, row - 6));
      } else {
        if (lines) {
          g.setStroke(stroke(ser));
          g.draw(new Line2D.Double(x, middle, x + 20, middle));
          g.setStroke(new BasicStroke(1f));
        }
        g.fill(marker(ser.marker(), x + 10, middle, lines ? 6 : 9));
      }
      g.setColor(Color.BLACK);
      g.drawString(ser.name(), (float) (x + 28), (float) (y + row * s + ascent(FONT)));
    }
  }

  /** Axis ticks: 1, 2 or 5 times a power of ten apart, or every power of ten on a log axis. */
  static final class Ticks {
    private Ticks() {}

    static double step(double rough) {
      double pow = Math.pow(10, Math.floor(Math.log10(rough)));
      double f = rough / pow;
      return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * pow;
    }

    static List<Double> of(double[] range, boolean log) {
      List<Double> ticks = new ArrayList<>();
      if (log) {
        for (double t = range[0]; t <= range[1] * 1.0001; t *= 10) {
          ticks.add(t);
        }
        return ticks;
      }
      double step = step((range[1] - range[0]) / 8);
      for (double t = Math.ceil(range[0] / step) * step; t <= range[1] + step * 1e-9; t += step) {
        ticks.add(Math.abs(t) < step * 1e-9 ? 0 : t);
      }
      return ticks;
    }

    /** @return {@code 250}, {@code 2.5}, {@code 1M}, {@code 1e-05}: short, and exact for tick values */
    static String label(double v) {
      double a = Math.abs(v);
      if (a == 0) {
        return "0";
      }
      if (a >= 1e6 && a < 1e15) {
        String[] units = {"M", "G", "T"};
        int k = (int) Math.floor(Math.log10(a) / 3) - 2;
        return trim(v / Math.pow(1000, k + 2)) + units[k];
      }
      if (a >= 1e3) {
        return trim(v / 1000) + "k";
      }
      if (a >= 0.01) {
        return trim(v);
      }
      return String.format(Locale.ROOT, "%.0e", v).replace("e-0", "e-");
    }

    private static String trim(double v) {
      String s = String.format(Locale.ROOT, "%.2f", v);
      return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }
  }
}
