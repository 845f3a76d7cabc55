package dev.redisbatch;

import java.time.Duration;
import java.util.Map;

import dev.redisbatch.reactive.ReactiveBatchTemplate;
import io.lettuce.core.RedisURI;
import reactor.core.publisher.Flux;

/**
 * Sends a {@code Flux} of ten million entries through
 * {@link ReactiveBatchTemplate#setAll} to the server on the given port, and prints the
 * results and the peak heap. Started in its own JVM with a small heap by
 * {@link BoundedMemoryTests}: the Flux is only asked for elements as the window frees up.
 */
public final class ReactiveTenMillionMain {

	static final int ELEMENTS = 10_000_000;

	private ReactiveTenMillionMain() {
	}

	public static void main(String[] args) {
		int port = Integer.parseInt(args[0]);
		try (BatchConnectionPool pool = BatchConnectionPool.builder(RedisURI.create("redis://127.0.0.1:" + port))
			.build()) {
			ReactiveBatchTemplate<String, String> reactive = new ReactiveBatchTemplate<>(new StringBatchTemplate(pool));
			Flux<Map.Entry<String, String>> entries = Flux.range(0, ELEMENTS)
				.map((i) -> Map.entry("key:" + (i % 100_000), "value-" + i));
			BatchResults results = reactive.setAll(entries, null).block(Duration.ofMinutes(4));
			TenMillionCommandsMain.printResult(results);
		}
	}

}
