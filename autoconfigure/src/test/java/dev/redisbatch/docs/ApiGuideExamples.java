package dev.redisbatch.docs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.redisbatch.BatchException;
import dev.redisbatch.BatchFailure;
import dev.redisbatch.BatchOptions;
import dev.redisbatch.BatchPoolExhaustedException;
import dev.redisbatch.BatchResults;
import dev.redisbatch.BatchTemplate;
import dev.redisbatch.Outcome;
import dev.redisbatch.Response;
import dev.redisbatch.StringBatchTemplate;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The examples of docs/api-guide.md.
 */
class ApiGuideExamples {

	private static final Log logger = LogFactory.getLog(ApiGuideExamples.class);

	private final StringBatchTemplate batchTemplate;

	ApiGuideExamples(StringBatchTemplate batchTemplate) {
		this.batchTemplate = batchTemplate;
	}

	Map<String, String> typedResponses() {
		Response<Long> visits;
		Response<Map<String, String>> profile;
		Response<Boolean> created;
		BatchResults results;
		// tag::typed[]
		List<Response<Long>> counters = new ArrayList<>();
		Response<Map<String, String>>[] holder = new Response[1];
		results = this.batchTemplate.execute((batch) -> {
			counters.add(batch.incr("visits:home"));
			holder[0] = batch.hgetAll("user:42");
			batch.expire("user:42", Duration.ofDays(30));
		});
		long homeVisits = counters.get(0).get(); // a Long, from INCR
		Map<String, String> user = holder[0].get(); // a Map, from HGETALL
		// end::typed[]
		logger.debug(homeVisits + " " + results.chunks());
		return user;
	}

	void handleFailures() {
		// tag::failures[]
		try {
			this.batchTemplate.execute((batch) -> {
				batch.incr("stock:1");
				batch.incr("stock:2");
			});
		}
		catch (BatchException ex) {
			BatchResults results = ex.getResults();
			// the four counts always add up to results.size()
			logger.warn("Batch failed: " + results.summary());
			for (BatchFailure failure : results.failures()) {
				if (failure.outcome() == Outcome.NOT_SENT) {
					// never sent: safe to send again
				}
				else if (failure.outcome() == Outcome.UNKNOWN) {
					// sent, no reply: it may have run; resend only if idempotent
				}
				else {
					// FAILED: Redis refused it, e.g. "WRONGTYPE ..."; it did not run
				}
			}
		}
		// end::failures[]
	}

	String whyNoConnection(List<Order> orders) {
		// tag::no-connection[]
		try {
			this.batchTemplate.setAll(Map.of("order:" + orders.get(0).id(), orders.get(0).json()), null);
			return "written";
		}
		catch (BatchException ex) {
			// every command is NOT_SENT: nothing reached Redis, so sending again is safe
			if (ex.getCause() instanceof BatchPoolExhaustedException) {
				return "busy"; // max-wait passed with every batch connection leased
			}
			if (ex.getCause() instanceof RedisConnectionFailureException) {
				return "unreachable"; // refused, authentication, TLS: see the message
			}
			throw ex;
		}
		// end::no-connection[]
	}

	BatchResults options(List<Order> orders) {
		// tag::options[]
		BatchOptions options = BatchOptions.builder()
			.chunkSize(500) // commands per chunk (one write each)
			.maxInFlightBytes(64 * 1024 * 1024) // a larger window for a distant server
			.timeout(Duration.ofSeconds(5)) // per chunk, from its write to its last reply
			.name("order-import") // the metrics tag: a fixed name, never data
			.build();
		return this.batchTemplate.execute(options, (batch) -> {
			for (Order order : orders) {
				batch.set("order:" + order.id(), order.json());
			}
		});
		// end::options[]
	}

	BatchResults transactional() {
		// tag::transactional[]
		BatchOptions atomicChunks = BatchOptions.builder().transactional(true).chunkSize(100).build();
		return this.batchTemplate.execute(atomicChunks, (batch) -> {
			batch.decrBy("account:alice", 30);
			batch.incrBy("account:bob", 30);
		});
		// end::transactional[]
	}

	Long script() {
		// tag::script[]
		RedisScript<Long> addAndCap = RedisScript.of("""
				local value = redis.call('INCRBY', KEYS[1], ARGV[1])
				if value > tonumber(ARGV[2]) then redis.call('SET', KEYS[1], ARGV[2]) return tonumber(ARGV[2]) end
				return value""", Long.class);
		Response<Long>[] capped = new Response[1];
		this.batchTemplate.execute((batch) -> capped[0] = batch.eval(addAndCap, List.of("quota:42"), "5", "100"));
		return capped[0].get();
		// end::script[]
	}

	BatchResults retry(List<Order> orders) {
		// tag::retry[]
		BatchOptions withRetry = BatchOptions.builder().retry(3, Duration.ofMillis(200)).build();
		return this.batchTemplate.execute(withRetry, (batch) -> {
			for (Order order : orders) {
				// SET is idempotent: resent even when UNKNOWN
				batch.idempotent().set("order:" + order.id(), order.json());
				// INCR is not: resent only when NOT_SENT
				batch.incr("orders:written");
			}
		});
		// end::retry[]
	}

	BatchResults endEarly(java.util.Iterator<Order> cursor) {
		// tag::end-early[]
		return this.batchTemplate.execute((batch) -> {
			// once stopped, the rest would only be NOT_SENT: stop reading
			while (cursor.hasNext() && !batch.isStopped()) {
				Order order = cursor.next();
				batch.set("order:" + order.id(), order.json());
			}
		});
		// end::end-early[]
	}

	static BatchTemplate<String, String> withoutSpringBoot() {
		// tag::without-boot[]
		dev.redisbatch.BatchConnectionPool pool = dev.redisbatch.BatchConnectionPool
			.builder(io.lettuce.core.RedisURI.create("redis://localhost:6379"))
			.maxActive(8)
			.maxWait(Duration.ofSeconds(2))
			.build(); // close() it on shutdown
		return new StringBatchTemplate(pool, BatchOptions.builder().chunkSize(1000).build());
		// end::without-boot[]
	}

}
