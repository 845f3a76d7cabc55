package dev.redisbatch;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import dev.redisbatch.protocol.RespWriter;
import dev.redisbatch.protocol.Slots;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.InvalidDataAccessApiUsageException;

/**
 * The exactly-once mode's one script, its markers and its framing
 * ({@link BatchOptions.Builder#exactlyOnce(boolean)}).
 * <p>
 * An exactly-once chunk goes out as one {@code EVAL} of {@link #SCRIPT}, whose arguments
 * are the chunk's commands as they were recorded. The script runs atomically: it first
 * looks for its marker, and if the marker is there the chunk ran before, and the script
 * returns the replies the marker keeps without running anything. Otherwise it claims the
 * marker (a refused write, such as {@code OOM} or {@code READONLY}, refuses the whole
 * chunk before anything ran), runs each command with {@code redis.pcall}, and keeps their
 * replies, as RESP2 text, under the marker for {@link #markerTtl}. It returns that text.
 * So a chunk whose reply was lost with its connection is sent again, the same bytes with
 * the same marker, on a new connection: if it ran, its commands' own replies come back;
 * if it did not, it runs now. On a Sentinel pool, a chunk refused with {@code READONLY}
 * (it reached a master demoted by a failover) is sent again the same way, to the master
 * the sentinels name then. No command runs twice, and none is left
 * {@link Outcome#UNKNOWN} while its server can be reached.
 * <p>
 * A marker is {@value #MARKER_PREFIX} and 22 random characters. The markers of chunks
 * answered on their first write are removed by the next chunk of the same lane; the
 * others expire.
 */
final class ExactlyOnce {

	/**
	 * The namespace of the markers: keys that start with it are the batches' own.
	 */
	static final String MARKER_PREFIX = "redis-batch:eo:";

	private static final byte[] MARKER_PREFIX_BYTES = MARKER_PREFIX.getBytes(StandardCharsets.US_ASCII);

	/**
	 * The least time a marker is kept.
	 */
	static final Duration MIN_MARKER_TTL = Duration.ofMinutes(5);

	/**
	 * The sends of a lost chunk when the batch sets no retry.
	 */
	static final int DEFAULT_ATTEMPTS = 3;

	/**
	 * The pause before sending a lost chunk again when the batch sets no backoff.
	 */
	static final Duration DEFAULT_BACKOFF = Duration.ofMillis(200);

	/**
	 * The most arguments (the name included) one command may have: the script hands a
	 * command's arguments to {@code redis.pcall} through Lua's {@code unpack}, which
	 * fails at 8,000 values.
	 */
	static final int MAX_ARGUMENTS = 7_900;

	/**
	 * The error the script answers for arguments it cannot read (never for a chunk the
	 * batch framed).
	 */
	static final String MALFORMED = "ERR redis-batch exactly-once: malformed chunk";

	/**
	 * KEYS[1]: the marker. ARGV[1]: the marker's TTL in seconds; ARGV[2]: how many
	 * markers of acknowledged chunks follow, to remove; then, for each command, its
	 * number of arguments (the name included) and its arguments.
	 */
	static final String SCRIPT = """
			local m, a = KEYS[1], ARGV
			local prev = redis.call('GET', m)
			if prev then return prev end
			local n = #a
			local acked = tonumber(a[2])
			local first = 3 + acked
			local i = first
			while i <= n do
			  local argc = tonumber(a[i])
			  if not argc or argc < 1 or argc > 7900 or i + argc > n then
			    return redis.error_reply('ERR redis-batch exactly-once: malformed chunk')
			  end
			  i = i + 1 + argc
			end
			local claim = redis.pcall('SET', m, '', 'EX', a[1])
			if type(claim) == 'table' and claim.err then return redis.error_reply(claim.err) end
			if acked > 0 then redis.pcall('UNLINK', unpack(a, 3, 2 + acked)) end
			local buf, b = {}, 0
			local function enc(r)
			  local t = type(r)
			  if t == 'string' then b = b + 1; buf[b] = '$' .. #r .. '\\r\\n' .. r .. '\\r\\n'
			  elseif t == 'number' then b = b + 1; buf[b] = string.format(':%d\\r\\n', r)
			  elseif t == 'boolean' then b = b + 1; buf[b] = r and ':1\\r\\n' or '$-1\\r\\n'
			  elseif r.ok then b = b + 1; buf[b] = '+' .. r.ok .. '\\r\\n'
			  elseif r.err then b = b + 1; buf[b] = '-' .. r.err .. '\\r\\n'
			  else
			    local k = #r
			    b = b + 1; buf[b] = '*' .. k .. '\\r\\n'
			    for j = 1, k do enc(r[j]) end
			  end
			end
			local exact = { INCR = 'GET', DECR = 'GET', INCRBY = 'GET', DECRBY = 'GET', HINCRBY = 'HGET' }
			local c = 0
			i = first
			while i <= n do
			  local argc = tonumber(a[i])
			  local r = redis.pcall(unpack(a, i + 1, i + argc))
			  if type(r) == 'number' and (r >= 9007199254740992 or r <= -9007199254740992) then
			    local again = exact[string.upper(a[i + 1])]
			    if again then
			      r = nil
			      b = b + 1
			      buf[b] = ':' .. redis.call(again, unpack(a, i + 2, again == 'GET' and i + 2 or i + 3)) .. '\\r\\n'
			    else
			      r = { err = 'ERR redis-batch exactly-once: the integer reply is beyond 2^53' }
			    end
			  end
			  if r ~= nil then enc(r) end
			  i = i + 1 + argc
			  c = c + 1
			end
			local res = '*' .. c .. '\\r\\n' .. table.concat(buf)
			redis.call('SET', m, res, 'EX', a[1])
			return res
			""";

	private static final byte[] SCRIPT_BYTES = SCRIPT.getBytes(StandardCharsets.UTF_8);

	private static final byte[] EVAL = "EVAL".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] ONE = { '1' };

	/**
	 * Commands a script cannot run, or runs differently: they are refused before anything
	 * is sent. The batch refuses others in every mode ({@link Unbatchable}).
	 */
	private static final Set<String> REFUSED = Set.of("EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO", "FCALL", "FCALL_RO",
			"FUNCTION", "SCRIPT", "CONFIG", "ACL", "MODULE", "LATENCY", "SAVE", "BGSAVE", "BGREWRITEAOF", "DEBUG",
			"REPLICAOF", "SLAVEOF", "FAILOVER", "CLUSTER", "PSYNC", "REPLCONF", "SHUTDOWN", "BITFIELD", "BITFIELD_RO");

	/**
	 * Replies to the script that say it did not run (refused before its first write).
	 */
	private static final List<String> NOT_RUN = List.of("OOM", "READONLY", "NOREPLICAS", "BUSY", "LOADING",
			"MASTERDOWN", "MISCONF", "NOPERM", "NOAUTH", "NOSCRIPT", "MOVED", "ASK", "TRYAGAIN", "CLUSTERDOWN",
			"CROSSSLOT", MALFORMED);

	/**
	 * Refusals after which a chunk goes again on a Sentinel pool: a master demoted by a
	 * failover; a new connection reaches the master the sentinels name.
	 */
	static final List<String> RESENT_ON_SENTINEL = List.of("READONLY");

	/**
	 * Refusals after which a chunk goes again on a cluster: its slot is being migrated
	 * ({@code ASK} when none of its keys is left on the old master, {@code TRYAGAIN} when
	 * some are, and on the new master, for a script that declares several keys, until
	 * they are all there). The chunk waits for the migration to end, when the old master
	 * answers {@code MOVED} and the chunk goes to the new one.
	 */
	static final List<String> RESENT_ON_CLUSTER = List.of("TRYAGAIN", "ASK ");

	private ExactlyOnce() {
	}

	/**
	 * Refuse a command an exactly-once batch cannot run.
	 * @param type the command
	 * @param arguments its arguments, its name included
	 * @throws InvalidDataAccessApiUsageException when it cannot run in a script
	 */
	static void check(ProtocolKeyword type, int arguments) {
		String name = type.toString().toUpperCase(Locale.ROOT);
		if (REFUSED.contains(name)) {
			throw new InvalidDataAccessApiUsageException(Messages.notExactlyOnce(name));
		}
		if (arguments > MAX_ARGUMENTS) {
			throw new InvalidDataAccessApiUsageException(Messages.tooManyArgumentsExactlyOnce(name, MAX_ARGUMENTS));
		}
	}

	/**
	 * How long a batch's markers are kept: long enough for every send of a lost chunk, at
	 * least {@link #MIN_MARKER_TTL}, and, for a batch with an id, its window.
	 */
	static Duration markerTtl(RunSettings settings) {
		Duration perSend = settings.timeout().plus(backoff(settings));
		Duration needed = perSend.multipliedBy(2L * attempts(settings));
		Duration window = settings.options().exactlyOnceWindow();
		if (window != null && window.compareTo(needed) > 0) {
			needed = window;
		}
		return (needed.compareTo(MIN_MARKER_TTL) > 0) ? needed : MIN_MARKER_TTL;
	}

	/**
	 * Whether the batch's markers are named after its id: they are kept for its window,
	 * and never removed once answered (the same batch run again looks for them).
	 */
	static boolean isNamed(RunSettings settings) {
		return settings.options().exactlyOnceId() != null;
	}

	/**
	 * How many times a lost chunk is sent again: the batch's retry attempts, or
	 * {@link #DEFAULT_ATTEMPTS}.
	 */
	static int attempts(RunSettings settings) {
		return (settings.retryAttempts() > 0) ? settings.retryAttempts() : DEFAULT_ATTEMPTS;
	}

	/**
	 * The pause before each send again: the batch's backoff, or {@link #DEFAULT_BACKOFF}.
	 */
	static Duration backoff(RunSettings settings) {
		return settings.retryBackoff().isZero() ? DEFAULT_BACKOFF : settings.retryBackoff();
	}

	/**
	 * The marker of a chunk: {@value #MARKER_PREFIX}, on a cluster the hash tag of the
	 * chunk's slot (the script's keys must share one slot), then 22 random characters
	 * (128 bits: unique without coordination); or, for a batch with an id, the id, the
	 * chunk's place among the batch's chunks to its server and a digest of the chunk's
	 * commands, so that the same batch run again names the same markers.
	 * @param settings the batch's settings
	 * @param slot the slot of the chunk's commands, or {@link Slots#ANY} off a cluster
	 * @param ordinal the chunk's place among the chunks the batch sent to its server
	 * @param commands the chunk's commands, as recorded
	 * @return the marker
	 */
	static byte[] marker(RunSettings settings, int slot, int ordinal, ByteBuf commands) {
		StringBuilder marker = new StringBuilder(64).append(MARKER_PREFIX);
		if (slot >= 0) {
			marker.append('{').append(new String(Slots.tag(slot), StandardCharsets.US_ASCII)).append('}');
		}
		String id = settings.options().exactlyOnceId();
		Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
		if (id == null) {
			byte[] random = new byte[16];
			ThreadLocalRandom.current().nextBytes(random);
			return marker.append(base64.encodeToString(random)).toString().getBytes(StandardCharsets.UTF_8);
		}
		MessageDigest sha256;
		try {
			sha256 = MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Every Java platform has SHA-256", ex);
		}
		sha256.update(commands.nioBuffer());
		byte[] digest = Arrays.copyOf(sha256.digest(), 12);
		return marker.append(id)
			.append(':')
			.append(ordinal)
			.append(':')
			.append(base64.encodeToString(digest))
			.toString()
			.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Whether a key is a marker.
	 */
	static boolean isMarker(byte[] key) {
		byte[] prefix = MARKER_PREFIX_BYTES;
		if (key.length < prefix.length) {
			return false;
		}
		for (int i = 0; i < prefix.length; i++) {
			if (key[i] != prefix[i]) {
				return false;
			}
		}
		return true;
	}

	/**
	 * The chunk's commands, as recorded (each {@code *N} then N bulk strings), framed as
	 * the script's {@code EVAL}: each command's header becomes its argument count, and
	 * its arguments are copied as they are.
	 * @param commands the recorded commands
	 * @param marker the chunk's marker
	 * @param ttlSeconds the marker's TTL
	 * @param acked markers of acknowledged chunks, for the script to remove
	 * @return the framed bytes
	 */
	static ByteBuf frame(ByteBuf commands, byte[] marker, long ttlSeconds, List<byte[]> acked) {
		int from = commands.readerIndex();
		int to = commands.writerIndex();
		int elements = 6 + acked.size();
		int position = from;
		while (position < to) {
			int argc = (int) number(commands, position + 1);
			position = lineEnd(commands, position) + 2;
			elements += 1 + argc;
			for (int i = 0; i < argc; i++) {
				position = skipBulk(commands, position);
			}
		}
		ByteBuf framed = Unpooled.buffer(commands.readableBytes() + SCRIPT_BYTES.length + 256 + 64 * acked.size());
		RespWriter.array(framed, elements);
		RespWriter.bulk(framed, EVAL);
		RespWriter.bulk(framed, SCRIPT_BYTES);
		RespWriter.bulk(framed, ONE);
		RespWriter.bulk(framed, marker);
		RespWriter.bulk(framed, ttlSeconds);
		RespWriter.bulk(framed, acked.size());
		for (byte[] key : acked) {
			RespWriter.bulk(framed, key);
		}
		position = from;
		while (position < to) {
			int argc = (int) number(commands, position + 1);
			RespWriter.bulk(framed, argc);
			int start = lineEnd(commands, position) + 2;
			int end = start;
			for (int i = 0; i < argc; i++) {
				end = skipBulk(commands, end);
			}
			framed.writeBytes(commands, start, end - start);
			position = end;
		}
		return framed;
	}

	/**
	 * Whether the script's error reply says it did not run: it was refused before its
	 * first write.
	 */
	static boolean didNotRun(@Nullable String error) {
		if (error == null) {
			return false;
		}
		for (String prefix : NOT_RUN) {
			if (error.startsWith(prefix)) {
				return true;
			}
		}
		return false;
	}

	private static int skipBulk(ByteBuf bytes, int position) {
		long length = number(bytes, position + 1);
		return lineEnd(bytes, position) + 2 + (int) length + 2;
	}

	private static int lineEnd(ByteBuf bytes, int from) {
		return bytes.indexOf(from, bytes.writerIndex(), (byte) '\r');
	}

	private static long number(ByteBuf bytes, int from) {
		long value = 0;
		boolean negative = false;
		int position = from;
		byte next = bytes.getByte(position);
		if (next == '-') {
			negative = true;
			next = bytes.getByte(++position);
		}
		while (next != '\r') {
			value = value * 10 + (next - '0');
			next = bytes.getByte(++position);
		}
		return negative ? -value : value;
	}

}
