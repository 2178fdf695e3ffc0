package dev.cuckoo.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.geom.Area;
import java.awt.geom.Rectangle2D;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The compare charts label every group and keep their text as text. */
class ChartTest {
  /** The contenders of a full compare run: 16 groups, the longest names it has. */
  private static final String[] NAMES = {
      "classic?fingerprintBits=8", "classic?fingerprintBits=12", "classic?fingerprintBits=16",
      "expandable?fingerprintBits=16", "scalable", "scalable?bucketSize=4", "semi-sorted?fingerprintBits=13",
      "semi-sorted?fingerprintBits=16", "fastfilter/Cuckoo8", "fastfilter/Cuckoo16", "fastfilter/CuckooPlus8",
      "fastfilter/CuckooPlus16", "cuckoofilter4j?fpp=0.002", "guava-bloom?fpp=0.03", "guava-bloom?fpp=0.002",
      "guava-bloom?fpp=1.0E-4"};
  private static final long SVG_BYTES_AT_MOST = 100_000;

  static List<Measurement> sixteen() {
    List<Measurement> results = new ArrayList<>();
    for (int i = 0; i < NAMES.length; i++) {
      String family = NAMES[i].startsWith("guava") ? "peer-bloom" : NAMES[i].contains("/") || NAMES[i].startsWith("cuckoofilter4j")
          ? "peer-cuckoo" : "cuckoo";
      results.add(new Measurement(NAMES[i], family, 10_000_000, 10_000_000, 8 + i, 0.03 / (i + 1), 0.97,
          50 + 40 * i, 10 + 20 * i, 12 + 18 * i, 0));
    }
    return results;
  }

  private static Set<String> svgTexts(Path svg) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    Document doc = factory.newDocumentBuilder().parse(svg.toFile());
    NodeList texts = doc.getElementsByTagName("text");
    Set<String> found = new HashSet<>();
    for (int i = 0; i < texts.getLength(); i++) {
      String style = ((Element) texts.item(i)).getAttribute("style");
      // Without a size a viewer draws the text at its own, larger than the layout measured.
      assertTrue(style.contains("font-size:"), svg + ": <text> without a font size: " + style);
      found.add(texts.item(i).getTextContent());
    }
    return found;
  }

  @Test
  void everyGroupOfTheSpeedChartIsATextElementOfASmallSvg(@TempDir Path out) throws Exception {
    CompareReport.write(sixteen(), 10_000_000, out);
    for (String chart : new String[] {"ns-per-op.svg", "fpp-vs-bits.svg"}) {
      Path svg = out.resolve(chart);
      Set<String> texts = svgTexts(svg);
      for (String name : NAMES) {
        assertTrue(texts.contains(name), chart + " has no <text> element for " + name + ": " + texts);
      }
      long bytes = Files.size(svg);
      assertTrue(bytes <= SVG_BYTES_AT_MOST, chart + " is " + bytes + " bytes");
    }
  }

  /**
   * Every group gets its label, whole inside the image and clear of its neighbours: the PNG is
   * drawn from the same places, and nothing decides to leave a label out.
   */
  @Test
  void everyGroupLabelHasRoomOfItsOwn() {
    Chart chart = CompareReport.speedChart(sixteen(), 10_000_000);
    List<Chart.LabelPlace> places = chart.categoryLabels();
    assertEquals(List.of(NAMES), places.stream().map(Chart.LabelPlace::text).toList());
    Rectangle2D image = new Rectangle2D.Double(0, 0, 1200, 700);
    for (int i = 0; i < places.size(); i++) {
      Chart.LabelPlace p = places.get(i);
      assertTrue(image.contains(p.box().getBounds2D()), p.text() + " leaves the image: " + p.box().getBounds2D());
      if (i > 0) {
        Area overlap = new Area(p.box());
        overlap.intersect(new Area(places.get(i - 1).box()));
        assertTrue(overlap.isEmpty(), p.text() + " overlaps " + places.get(i - 1).text());
      }
    }
  }
}
