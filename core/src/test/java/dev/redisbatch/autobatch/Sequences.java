package dev.redisbatch.autobatch;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Per-caller sequences that show a reordered, lost or repeated command: each caller
 * increments a key of its own and reads it back, round after round. INCR answers the
 * round's number only when no earlier INCR of the caller was lost, repeated or overtaken,
 * and the GET that follows sees it only when it was not sent before its INCR.
 */
final class Sequences {

	private Sequences() {
	}

	/**
	 * Run the sequences on threads of their own, all started together, and check every
	 * answer and the final counts.
	 * @return the number of commands sent
	 */
	static long run(StringRedisTemplate template, String prefix, int callers, int rounds) throws InterruptedException {
		Queue<String> wrong = new ConcurrentLinkedQueue<>();
		CountDownLatch start = new CountDownLatch(1);
		List<Thread> threads = new ArrayList<>();
		for (int caller = 0; caller < callers; caller++) {
			String key = prefix + ":" + caller;
			Thread thread = new Thread(() -> {
				try {
					start.await();
					for (long round = 1; round <= rounds; round++) {
						Long counted = template.opsForValue().increment(key);
						String read = template.opsForValue().get(key);
						if (counted == null || counted != round || !String.valueOf(round).equals(read)) {
							wrong.add(key + " round " + round + ": INCR " + counted + ", GET " + read);
							return;
						}
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				catch (RuntimeException ex) {
					wrong.add(key + ": " + ex);
				}
			}, "sequence-" + caller);
			thread.start();
			threads.add(thread);
		}
		start.countDown();
		for (Thread thread : threads) {
			thread.join(TimeUnit.MINUTES.toMillis(1));
		}
		assertThat(wrong).isEmpty();
		for (int caller = 0; caller < callers; caller++) {
			assertThat(template.opsForValue().get(prefix + ":" + caller)).isEqualTo(String.valueOf(rounds));
		}
		return 2L * callers * rounds;
	}

	/**
	 * The same with a reactive template: the sequences run concurrently, each one round
	 * after the other; the next command of a sequence is written by the thread that
	 * completed the previous one, usually the event loop.
	 * @return the number of commands sent
	 */
	static long run(ReactiveStringRedisTemplate template, String prefix, int callers, int rounds) {
		List<String> wrong = Flux.range(0, callers)
			.flatMap((caller) -> sequence(template, prefix + ":" + caller, rounds), callers)
			.collectList()
			.block();
		assertThat(wrong).isEmpty();
		for (int caller = 0; caller < callers; caller++) {
			assertThat(template.opsForValue().get(prefix + ":" + caller).block()).isEqualTo(String.valueOf(rounds));
		}
		return 2L * callers * rounds;
	}

	private static Flux<String> sequence(ReactiveStringRedisTemplate template, String key, int rounds) {
		return Flux.range(1, rounds)
			.concatMap((round) -> template.opsForValue()
				.increment(key)
				.flatMap((counted) -> template.opsForValue()
					.get(key)
					.flatMap((read) -> (counted.longValue() == round && String.valueOf(round).equals(read))
							? Mono.<String>empty()
							: Mono.just(key + " round " + round + ": INCR " + counted + ", GET " + read))))
			.take(1);
	}

}
