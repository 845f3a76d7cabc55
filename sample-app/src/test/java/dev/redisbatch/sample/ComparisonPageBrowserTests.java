package dev.redisbatch.sample;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

import dev.redisbatch.sample.timing.ComparisonService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The page at {@code /} in a real headless Chromium (Debian's {@code chromium} and
 * {@code chromedriver}; skipped when they are missing). Selenium Manager never runs: the
 * driver and browser paths are given, and Chromium's background networking is off.
 */
class ComparisonPageBrowserTests extends SampleAppAgainstOwnRedis {

	private static final Path CHROMIUM = Path.of(System.getProperty("sample.chromium", "/usr/bin/chromium"));

	private static final Path CHROMEDRIVER = Path
		.of(System.getProperty("sample.chromedriver", "/usr/bin/chromedriver"));

	private static final Path SCREENSHOTS = Path.of(System.getProperty("sample.screenshots", "target/screenshots"));

	// -Dsample.browser.count=10000 -Dsample.browser.rtt=20 gives the screenshot in
	// docs/sample-app.md.
	private static final int COUNT = Integer.getInteger("sample.browser.count", 300);

	private static final int RTT = Integer.getInteger("sample.browser.rtt", 1);

	private ChromeDriver browser;

	@BeforeEach
	void startBrowser(@TempDir Path profile) {
		assumeTrue(Files.isExecutable(CHROMIUM),
				() -> "No Chromium at " + CHROMIUM + " (install Debian's chromium package; .ci/run does)");
		assumeTrue(Files.isExecutable(CHROMEDRIVER),
				() -> "No chromedriver at " + CHROMEDRIVER + " (install Debian's chromium-driver package)");
		ChromeOptions options = new ChromeOptions();
		options.setBinary(CHROMIUM.toFile());
		options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
				"--disable-quic", "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
				"--disable-component-update", "--disable-sync", "--disable-extensions", "--window-size=1280,1000",
				"--user-data-dir=" + profile.toAbsolutePath());
		ChromeDriverService service = new ChromeDriverService.Builder()
			.usingDriverExecutable(new File(CHROMEDRIVER.toString()))
			.usingAnyFreePort()
			.build();
		this.browser = new ChromeDriver(service, options);
	}

	@AfterEach
	void stopBrowser() {
		if (this.browser != null) {
			this.browser.quit();
		}
	}

	@Test
	void aComparisonRunFromThePageShowsItsNumbersInTheChartAndTheTable() throws IOException {
		WebDriverWait wait = new WebDriverWait(this.browser, Duration.ofSeconds(60), Duration.ofMillis(50));
		this.browser.get("http://127.0.0.1:" + this.port + "/");
		wait.until(ExpectedConditions.attributeToBe(By.tagName("body"), "data-ready", "true"));
		assertThat(this.browser.findElements(By.cssSelector("#strategies input[name=strategy]"))).hasSize(5);
		assertThat(this.browser.findElement(By.id("route")).getText()).contains("127.0.0.1:" + redis.port());
		assertThat(this.browser.findElement(By.id("jvm")).getText()).startsWith("Timings run on Java ")
			.contains("JIT: full (C1, then C2)");

		if (RTT != 0) {
			this.browser.findElement(By.id("rtt-" + RTT)).click();
			wait.until(ExpectedConditions.textToBe(By.id("status"), "Simulated round trip is now " + RTT + " ms."));
		}
		WebElement count = this.browser.findElement(By.id("count"));
		count.clear();
		count.sendKeys(String.valueOf(COUNT));
		this.browser.findElement(By.id("run")).click();

		WebElement status = this.browser.findElement(By.id("status"));
		assertThat(status.getAttribute("data-state")).isEqualTo("running");
		assertThat(status.getText()).startsWith("Running");
		assertThat(this.browser.findElement(By.id("run")).isEnabled()).isFalse();
		wait.until(ExpectedConditions.attributeToBe(status, "data-state", "done"));
		assertThat(status.getText()).startsWith("Done: comparison in");

		List<WebElement> rows = this.browser.findElements(By.cssSelector("#results-table tbody tr"));
		List<WebElement> bars = this.browser.findElements(By.cssSelector("#bar-chart rect.bar"));
		assertThat(rows).hasSize(5);
		assertThat(bars).hasSize(5);
		for (WebElement row : rows) {
			String strategy = row.getAttribute("data-strategy");
			String ops = row.findElement(By.cssSelector("td.ops")).getText();
			long opsPerSecond = Long.parseLong(ops.replace(",", ""));
			assertThat(opsPerSecond).as(strategy).isPositive();
			// a row shows its count, or how far it got when the time budget stopped it
			// (one command per round trip, with a large count at a long round trip)
			String timed = row.findElement(By.cssSelector("td.count")).getText();
			if (!timed.startsWith(String.format(Locale.US, "%,d", COUNT))) {
				assertThat(timed).as(strategy).endsWith("stopped by the time budget");
			}
			WebElement bar = this.browser
				.findElement(By.cssSelector("#bar-chart rect.bar[data-strategy='" + strategy + "']"));
			assertThat(Long.parseLong(bar.getAttribute("data-ops"))).isEqualTo(opsPerSecond);
			assertThat(Double.parseDouble(bar.getAttribute("width"))).isPositive();
			WebElement label = this.browser
				.findElement(By.cssSelector("#bar-chart text.bar-label[data-strategy='" + strategy + "']"));
			assertThat(label.getText()).isEqualTo(ops + "/s");
		}
		assertThat(barWidth("batch-template")).isGreaterThan(barWidth("one-per-round-trip"));
		assertThat(this.browser.findElement(By.id("results-caption")).getText())
			.contains("at " + RTT + " ms simulated round trip");

		int points = ComparisonService.chunkSizes(COUNT).size();
		assertThat(this.browser.findElements(By.cssSelector("#sweep-chart circle.point"))).hasSize(points);
		List<WebElement> sweepOps = this.browser.findElements(By.cssSelector("#sweep-table td.ops"));
		assertThat(sweepOps).hasSize(points);
		for (WebElement ops : sweepOps) {
			WebElement point = this.browser.findElement(By.cssSelector(
					"#sweep-chart circle.point[data-chunk-size='" + ops.getAttribute("data-chunk-size") + "']"));
			assertThat(point.getAttribute("data-ops")).isEqualTo(ops.getText().replace(",", ""));
		}
		assertThat(this.browser.findElement(By.cssSelector("#sweep-chart path.sweep-line")).getAttribute("d"))
			.startsWith("M");

		Object height = this.browser.executeScript("return document.documentElement.scrollHeight");
		this.browser.manage().window().setSize(new Dimension(1280, ((Number) height).intValue() + 160));
		Files.createDirectories(SCREENSHOTS);
		Path screenshot = SCREENSHOTS.resolve("compare.png");
		Files.write(screenshot, this.browser.getScreenshotAs(OutputType.BYTES));
		assertThat(screenshot).isNotEmptyFile();
	}

	private double barWidth(String strategy) {
		return Double.parseDouble(
				this.browser.findElement(By.cssSelector("#bar-chart rect.bar[data-strategy='" + strategy + "']"))
					.getAttribute("width"));
	}

}
