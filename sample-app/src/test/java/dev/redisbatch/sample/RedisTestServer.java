package dev.redisbatch.sample;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.redisbatch.testsupport.RedisProcess;

/**
 * What the tests read from their own Redis server to see what the sample did there.
 */
final class RedisTestServer {

	private RedisTestServer() {
	}

	/**
	 * Every key on the server.
	 */
	@SuppressWarnings("unchecked")
	static List<String> keys(RedisProcess redis) {
		return (List<String>) redis.call("KEYS", "*");
	}

	/**
	 * The {@code INFO commandstats} lines, by command, without {@code INFO} itself (the
	 * test's own probe).
	 */
	static Map<String, String> commandStats(RedisProcess redis) {
		Map<String, String> stats = new TreeMap<>(redis.info("commandstats"));
		stats.keySet().removeIf((name) -> name.equals("cmdstat_info"));
		return stats;
	}

}
