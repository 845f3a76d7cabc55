package dev.redisbatch.testsupport;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class when Netty reports a buffer that was never released, in a JVM run
 * with {@code -Dio.netty.leakDetection.level=paranoid} (every buffer tracked). Netty
 * reports a leak when the buffer is garbage-collected; after the class's tests, this runs
 * the collector and has Netty look for what it found.
 * <p>
 * Netty makes the leak detector of its buffers once, when they are first used: the
 * extension must be loaded before that, so the classes that use it run in a JVM of their
 * own. At any other level it does nothing.
 *
 * @since 0.1.0
 */
public final class NettyLeakDetection implements AfterAllCallback {

	/**
	 * The leaks reported in this JVM, or {@code null} when leaks are not tracked here.
	 */
	private static final @Nullable List<String> LEAKS = install();

	private static int reported;

	private static @Nullable List<String> install() {
		String level = System.getProperty("io.netty.leakDetection.level", "");
		if (!"paranoid".equals(level.toLowerCase(Locale.ROOT))) {
			return null;
		}
		Recording recording = new Recording();
		ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(recording);
		// Netty's buffers make their detector now, unless they already did
		Unpooled.buffer(1).release();
		if (!recording.madeForBuffers) {
			throw new IllegalStateException("Netty's buffers were used before NettyLeakDetection was loaded, so their "
					+ "leaks cannot be counted: run these test classes in a JVM of their own");
		}
		return recording.leaks;
	}

	@Override
	public void afterAll(ExtensionContext context) {
		if (LEAKS == null) {
			return;
		}
		collect();
		collect();
		synchronized (LEAKS) {
			if (LEAKS.size() > reported) {
				List<String> found = new ArrayList<>(LEAKS.subList(reported, LEAKS.size()));
				reported = LEAKS.size();
				throw new AssertionError("Netty reported " + found.size() + " buffer(s) never released (at the latest "
						+ "during " + context.getDisplayName() + "):\n" + String.join("\n", found));
			}
		}
	}

	/**
	 * Collect garbage, wait until the collector has handed over what it cleared, and let
	 * Netty look at it: it does on each buffer it tracks.
	 */
	private static void collect() {
		ReferenceQueue<Object> cleared = new ReferenceQueue<>();
		WeakReference<Object> marker = new WeakReference<>(new Object(), cleared);
		System.gc();
		try {
			cleared.remove(10_000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		marker.clear();
		for (int i = 0; i < 8; i++) {
			ByteBuf probe = ByteBufAllocator.DEFAULT.buffer(1);
			probe.release();
		}
	}

	/**
	 * Makes Netty's leak detectors, each of which notes what it reports.
	 */
	private static final class Recording extends ResourceLeakDetectorFactory {

		private final List<String> leaks = new ArrayList<>();

		private volatile boolean madeForBuffers;

		@Override
		@SuppressWarnings("deprecation")
		public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval,
				long maxActive) {
			if (resource == ByteBuf.class) {
				this.madeForBuffers = true;
			}
			return new ResourceLeakDetector<>(resource, samplingInterval) {

				@Override
				protected boolean needReport() {
					return true;
				}

				@Override
				protected void reportTracedLeak(String resourceType, String records) {
					note(resourceType + " was never released; its last uses:" + records);
					super.reportTracedLeak(resourceType, records);
				}

				@Override
				protected void reportUntracedLeak(String resourceType) {
					note(resourceType + " was never released");
					super.reportUntracedLeak(resourceType);
				}

			};
		}

		private void note(String leak) {
			synchronized (this.leaks) {
				this.leaks.add(leak);
			}
		}

	}

}
