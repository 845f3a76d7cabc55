package dev.redisbatch.protocol;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.jspecify.annotations.Nullable;

/**
 * Where the keys are in the arguments of the commands that take more than one key, so
 * that a batch on a cluster can tell whether a command's keys share a slot. Commands not
 * listed here are routed by their first key.
 *
 * @since 0.1.0
 */
public final class ClusterKeys {

	/**
	 * Every argument is a key.
	 */
	private static final Set<CommandType> ALL = EnumSet.of(CommandType.DEL, CommandType.UNLINK, CommandType.EXISTS,
			CommandType.TOUCH, CommandType.MGET, CommandType.SUNION, CommandType.SINTER, CommandType.SDIFF,
			CommandType.SUNIONSTORE, CommandType.SINTERSTORE, CommandType.SDIFFSTORE, CommandType.PFCOUNT,
			CommandType.PFMERGE);

	/**
	 * Keys and values alternate.
	 */
	private static final Set<CommandType> PAIRS = EnumSet.of(CommandType.MSET, CommandType.MSETNX);

	/**
	 * The first two arguments are keys.
	 */
	private static final Set<CommandType> FIRST_TWO = EnumSet.of(CommandType.RENAME, CommandType.RENAMENX,
			CommandType.SMOVE, CommandType.LMOVE, CommandType.RPOPLPUSH, CommandType.COPY, CommandType.ZRANGESTORE,
			CommandType.GEOSEARCHSTORE);

	/**
	 * A script: the second argument says how many keys follow it.
	 */
	private static final Set<CommandType> SCRIPTS = EnumSet.of(CommandType.EVAL, CommandType.EVAL_RO,
			CommandType.EVALSHA, CommandType.EVALSHA_RO, CommandType.FCALL, CommandType.FCALL_RO);

	/**
	 * The first argument says how many keys follow it.
	 */
	private static final Set<CommandType> COUNTED = EnumSet.of(CommandType.ZUNION, CommandType.ZINTER,
			CommandType.ZDIFF, CommandType.ZINTERCARD, CommandType.SINTERCARD, CommandType.LMPOP, CommandType.ZMPOP);

	/**
	 * A destination key, then the number of keys that follow.
	 */
	private static final Set<CommandType> STORE_COUNTED = EnumSet.of(CommandType.ZUNIONSTORE, CommandType.ZINTERSTORE,
			CommandType.ZDIFFSTORE);

	/**
	 * Commands whose keys can be sent per slot, with the replies put back together: they
	 * read or remove each key on its own.
	 */
	private static final Set<CommandType> SPLITTABLE = EnumSet.of(CommandType.DEL, CommandType.UNLINK,
			CommandType.EXISTS, CommandType.TOUCH, CommandType.MGET);

	private ClusterKeys() {
	}

	/**
	 * The keys of a command that takes more than one.
	 * @param type the command
	 * @param args its arguments, as Lettuce built them
	 * @return the keys, or {@code null} when the command is routed by its first key
	 */
	public static byte @Nullable [][] keys(ProtocolKeyword type, CommandArgs<byte[], byte[]> args) {
		if (!(type instanceof CommandType command)) {
			return null;
		}
		boolean all = ALL.contains(command);
		if (!all && !PAIRS.contains(command) && !FIRST_TWO.contains(command) && !SCRIPTS.contains(command)
				&& !COUNTED.contains(command) && !STORE_COUNTED.contains(command)) {
			return null;
		}
		List<byte[]> arguments = arguments(args);
		List<byte[]> keys = new ArrayList<>();
		if (all) {
			keys.addAll(arguments);
		}
		else if (PAIRS.contains(command)) {
			for (int i = 0; i < arguments.size(); i += 2) {
				keys.add(arguments.get(i));
			}
		}
		else if (FIRST_TWO.contains(command)) {
			keys.addAll(arguments.subList(0, Math.min(2, arguments.size())));
		}
		else if (SCRIPTS.contains(command)) {
			addCounted(keys, arguments, 1);
		}
		else if (COUNTED.contains(command)) {
			addCounted(keys, arguments, 0);
		}
		else {
			keys.add(arguments.get(0));
			addCounted(keys, arguments, 1);
		}
		return keys.toArray(byte[][]::new);
	}

	/**
	 * Whether a command whose keys span slots can be sent as one command per slot.
	 * @param type the command
	 * @return whether it reads or removes each key on its own
	 */
	public static boolean splittable(ProtocolKeyword type) {
		return type instanceof CommandType command && SPLITTABLE.contains(command);
	}

	private static void addCounted(List<byte[]> keys, List<byte[]> arguments, int countAt) {
		if (arguments.size() <= countAt) {
			return;
		}
		int count = Integer.parseInt(new String(arguments.get(countAt), java.nio.charset.StandardCharsets.US_ASCII));
		keys.addAll(arguments.subList(countAt + 1, Math.min(arguments.size(), countAt + 1 + count)));
	}

	/**
	 * The arguments as Lettuce encodes them: one bulk string each.
	 */
	private static List<byte[]> arguments(CommandArgs<byte[], byte[]> args) {
		ByteBuf buffer = Unpooled.buffer();
		try {
			args.encode(buffer);
			return RespWriter.bulks(buffer);
		}
		finally {
			buffer.release();
		}
	}

}
