package dev.redisbatch;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ProtocolKeyword;

import org.springframework.dao.InvalidDataAccessApiUsageException;

/**
 * Commands that cannot be part of a batch: they block the connection, change its state
 * for whoever uses it next, or need replies that a pipeline cannot give. Both paths into
 * a batch refuse them: {@code RedisTemplate} code inside a batch, and
 * {@link Batch#command(String, CommandReply, java.util.function.Consumer)}.
 */
final class Unbatchable {

	private static final Set<CommandType> COMMANDS = EnumSet.of(CommandType.BLPOP, CommandType.BRPOP,
			CommandType.BRPOPLPUSH, CommandType.BLMOVE, CommandType.BLMPOP, CommandType.BZPOPMIN, CommandType.BZPOPMAX,
			CommandType.BZMPOP, CommandType.WAIT, CommandType.MULTI, CommandType.EXEC, CommandType.DISCARD,
			CommandType.WATCH, CommandType.UNWATCH, CommandType.SELECT, CommandType.AUTH, CommandType.HELLO,
			CommandType.CLIENT, CommandType.QUIT, CommandType.SUBSCRIBE, CommandType.PSUBSCRIBE, CommandType.SSUBSCRIBE,
			CommandType.UNSUBSCRIBE, CommandType.PUNSUBSCRIBE, CommandType.SUNSUBSCRIBE, CommandType.MONITOR,
			CommandType.READONLY, CommandType.READWRITE, CommandType.SHUTDOWN, CommandType.SYNC);

	/**
	 * The same by name, with the commands Lettuce has no constant for.
	 */
	private static final Set<String> NAMES = names();

	/**
	 * Commands that block when given this option.
	 */
	private static final Set<String> BLOCKING_WITH_OPTION = Set.of("XREAD", "XREADGROUP");

	private Unbatchable() {
	}

	/**
	 * Refuse a command that Lettuce built.
	 * @throws InvalidDataAccessApiUsageException if it cannot run in a batch
	 */
	static void check(ProtocolKeyword type) {
		if (type instanceof CommandType known && COMMANDS.contains(known)) {
			throw new InvalidDataAccessApiUsageException(message(type.toString()));
		}
	}

	/**
	 * Refuse a command given by name.
	 * @return the name in upper case
	 * @throws IllegalArgumentException if it cannot run in a batch
	 */
	static String checkName(String name) {
		String upper = name.toUpperCase(Locale.ROOT);
		if (NAMES.contains(upper)) {
			throw new IllegalArgumentException(message(upper));
		}
		return upper;
	}

	/**
	 * Whether a command given by name has options before {@code STREAMS} of which one
	 * blocks.
	 */
	static boolean hasBlockingOption(String upperName) {
		return BLOCKING_WITH_OPTION.contains(upperName);
	}

	/**
	 * Refuse the blocking option of {@code XREAD} and {@code XREADGROUP}: {@code BLOCK}
	 * among the options, before {@code STREAMS} (and after the group and consumer names
	 * of {@code XREADGROUP}, which may be any word).
	 * @param upperName the command
	 * @param position the argument's position, from 0
	 * @param argument the argument
	 * @throws IllegalArgumentException for {@code BLOCK}
	 */
	static void checkOption(String upperName, int position, String argument) {
		int firstOption = "XREADGROUP".equals(upperName) ? 3 : 0;
		if (position >= firstOption && "BLOCK".equalsIgnoreCase(argument)) {
			throw new IllegalArgumentException(message(upperName + " BLOCK"));
		}
	}

	private static String message(String command) {
		return command + " cannot run in a batch (a BatchTemplate callback or a @RedisBatch method): a batch "
				+ "pipelines commands on a pooled connection and reads no reply before the batch ends, so blocking "
				+ "commands, MULTI/EXEC (use the transactional option), SELECT, AUTH, CLIENT and subscriptions are not "
				+ "allowed. Run it outside the batch.";
	}

	private static Set<String> names() {
		Set<String> names = COMMANDS.stream().map(CommandType::name).collect(Collectors.toCollection(HashSet::new));
		names.addAll(Set.of("WAITAOF", "RESET", "PSYNC", "REPLICAOF", "SLAVEOF", "DEBUG", "FAILOVER"));
		return Set.copyOf(names);
	}

}
