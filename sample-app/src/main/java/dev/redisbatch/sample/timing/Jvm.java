package dev.redisbatch.sample.timing;

import java.lang.management.ManagementFactory;

import com.sun.management.HotSpotDiagnosticMXBean;
import org.jspecify.annotations.Nullable;

/**
 * The JVM the timings run on, and whether its JIT compiles fully: code that only C1
 * compiles (as with {@code -XX:TieredStopAtLevel=1}, which Spring Boot's Maven plugin
 * adds to {@code spring-boot:run} unless {@code optimizedLaunch} is off) never reaches
 * its compiled speed, so its timings are not those of an application in production. Read
 * from the JVM's options, never from its command line, which may carry secrets.
 *
 * @param version the Java version
 * @param fullJit whether both JIT compilers run (C1, then C2), {@code null} when the JVM
 * does not tell (a native image, or not HotSpot)
 * @param jit how the JIT runs, in words
 * @since 0.1.0
 */
public record Jvm(String version, @Nullable Boolean fullJit, String jit) {

	/**
	 * The JVM this application runs on.
	 * @return its description
	 */
	public static Jvm current() {
		String version = Runtime.version().toString();
		String stopAtLevel = option("TieredStopAtLevel");
		String tiered = option("TieredCompilation");
		if (stopAtLevel == null || tiered == null) {
			return new Jvm(version, null, "unknown (not a HotSpot JVM: a native image, or another VM)");
		}
		if (Boolean.parseBoolean(tiered) && !"4".equals(stopAtLevel)) {
			return new Jvm(version, false, "C1 only (-XX:TieredStopAtLevel=" + stopAtLevel
					+ "): the timed code is never fully compiled, unlike in production");
		}
		return new Jvm(version, true, "full (C1, then C2)");
	}

	private static @Nullable String option(String name) {
		try {
			HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
			return (hotSpot != null) ? hotSpot.getVMOption(name).getValue() : null;
		}
		catch (RuntimeException | LinkageError ex) {
			return null;
		}
	}

}
