package dev.cuckoo.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The progress line and the number formats behind it and the advice. */
class ProgressBarTest {

  static void assertLineShape(String line) {
    assertTrue(line.matches("\\[[#.]{24}] +\\d+%  [\\d,]+ keys  [\\d.]+[kM]? keys/s  ETA \\d+:\\d\\d:\\d\\d"), line);
  }

  @Test
  void theLineShowsShareKeysRateAndTimeLeft() {
    assertEquals("[############............]  50%  500,000 keys  250k keys/s  ETA 0:00:02",
        ProgressBar.line(500_000, 5_000_000, 10_000_000, 2_000_000_000L));
    assertEquals("[........................]   0%  0 keys  0 keys/s  ETA ?", ProgressBar.line(0, 0, 10, 1));
    assertEquals("1,234 keys  1.23k keys/s", ProgressBar.line(1_234, 99, -1, 1_000_000_000L));
    assertLineShape(ProgressBar.line(3, 1, 4, 10));
  }

  @Test
  void nothingIsDrawnInTheFirstHalfSecondOrWhenOff() {
    StringWriter err = new StringWriter();
    ProgressBar bar = ProgressBar.on(new PrintWriter(err), 100);
    bar.update(1, 1);
    bar.finish();
    ProgressBar.off().update(1, 1);
    ProgressBar.off().finish();
    assertEquals("", err.toString());
  }

  @Test
  void numbersForPeople() {
    assertEquals("1,000,000", TextFormat.grouped(1_000_000));
    assertEquals("1 key", TextFormat.things(1, "key"));
    assertEquals("2,000 keys", TextFormat.things(2_000, "key"));
    assertEquals("950", TextFormat.count(950));
    assertEquals("1.50M", TextFormat.count(1_500_000));
    assertEquals("1:01:05", TextFormat.duration(3665));
    assertEquals(1_300_000, TextFormat.roundUpToTwoFigures(1_234_567));
    assertEquals(1_100_000, TextFormat.roundUpToTwoFigures(1_100_000));
    assertEquals(99, TextFormat.roundUpToTwoFigures(99));
    assertEquals(5_500, TextFormat.roundUpToTwoFigures(5_500));
  }
}
