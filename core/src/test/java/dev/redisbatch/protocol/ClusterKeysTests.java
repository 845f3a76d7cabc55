package dev.redisbatch.protocol;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import io.lettuce.core.LMPopArgs;
import io.lettuce.core.ZAggregateArgs;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandKeyword;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ProtocolKeyword;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ClusterKeys}: the keys of multi-key commands, read from arguments built the way
 * Lettuce's own command builder ({@code RedisCommandBuilder}) builds them.
 */
class ClusterKeysTests {

	private static final byte[] A = ascii("a");

	private static final byte[] B = ascii("b");

	private static final byte[] C = ascii("c");

	@Test
	void takesEveryArgumentOfDelAsAKey() {
		CommandArgs<byte[], byte[]> args = args().addKeys(A, B, C);

		assertThat(ClusterKeys.keys(CommandType.DEL, args)).isDeepEqualTo(new byte[][] { A, B, C });
	}

	@Test
	void takesEveryArgumentOfMgetAsAKey() {
		CommandArgs<byte[], byte[]> args = args().addKeys(A, B);

		assertThat(ClusterKeys.keys(CommandType.MGET, args)).isDeepEqualTo(new byte[][] { A, B });
	}

	@Test
	void takesTheOneArgumentOfASingleKeyDelAsItsKey() {
		CommandArgs<byte[], byte[]> args = args().addKeys(A);

		assertThat(ClusterKeys.keys(CommandType.DEL, args)).isDeepEqualTo(new byte[][] { A });
	}

	@Test
	void takesEmptyAndBinaryKeysAsTheyAre() {
		byte[] binary = { 0, (byte) 0xFF, '\r', '\n', '$' };
		CommandArgs<byte[], byte[]> args = args().addKeys(new byte[0], binary);

		assertThat(ClusterKeys.keys(CommandType.EXISTS, args)).isDeepEqualTo(new byte[][] { new byte[0], binary });
	}

	@Test
	void takesEveryOtherArgumentOfMsetAsAKey() {
		Map<byte[], byte[]> entries = new LinkedHashMap<>();
		entries.put(A, ascii("value-a"));
		entries.put(B, ascii("value-b"));
		entries.put(C, ascii("value-c"));
		CommandArgs<byte[], byte[]> args = args().add(entries);

		assertThat(ClusterKeys.keys(CommandType.MSET, args)).isDeepEqualTo(new byte[][] { A, B, C });
	}

	@Test
	void takesEveryOtherArgumentOfMsetnxAsAKeyEvenWhenValuesLookLikeKeys() {
		Map<byte[], byte[]> entries = new LinkedHashMap<>();
		entries.put(A, B);
		entries.put(C, A);
		CommandArgs<byte[], byte[]> args = args().add(entries);

		assertThat(ClusterKeys.keys(CommandType.MSETNX, args)).isDeepEqualTo(new byte[][] { A, C });
	}

	@Test
	void takesTheFirstTwoArgumentsOfRenameAsKeys() {
		CommandArgs<byte[], byte[]> args = args().addKey(A).addKey(B);

		assertThat(ClusterKeys.keys(CommandType.RENAME, args)).isDeepEqualTo(new byte[][] { A, B });
	}

	@Test
	void takesOnlyTheFirstTwoArgumentsOfLmoveAsKeys() {
		CommandArgs<byte[], byte[]> args = args().addKey(A)
			.addKey(B)
			.add(CommandKeyword.LEFT)
			.add(CommandKeyword.RIGHT);

		assertThat(ClusterKeys.keys(CommandType.LMOVE, args)).isDeepEqualTo(new byte[][] { A, B });
	}

	@Test
	void takesOnlyTheFirstTwoArgumentsOfCopyAsKeys() {
		CommandArgs<byte[], byte[]> args = args().addKey(A).addKey(B).add(CommandKeyword.DB).add(3).add("REPLACE");

		assertThat(ClusterKeys.keys(CommandType.COPY, args)).isDeepEqualTo(new byte[][] { A, B });
	}

	@Test
	void takesTheKeysThatFollowTheNumberOfKeysOfEval() {
		CommandArgs<byte[], byte[]> args = args().add(ascii("return 1")).add(2).addKeys(A, B).addValues(C, ascii("2"));

		assertThat(ClusterKeys.keys(CommandType.EVAL, args)).isDeepEqualTo(new byte[][] { A, B });
	}

	@Test
	void takesNoKeysOfAnEvalWithoutKeys() {
		CommandArgs<byte[], byte[]> args = args().add(ascii("return 1")).add(0).addValues(A, B);

		assertThat(ClusterKeys.keys(CommandType.EVAL, args)).isEmpty();
	}

	@Test
	void takesTheKeysThatFollowTheNumberOfKeysOfEvalsha() {
		CommandArgs<byte[], byte[]> args = args().add("e0e1f9fabfc9d4800c877a703b823ac0578ff8db")
			.add(1)
			.addKeys(A)
			.addValues(B, C);

		assertThat(ClusterKeys.keys(CommandType.EVALSHA, args)).isDeepEqualTo(new byte[][] { A });
	}

	@Test
	void takesTheKeysThatFollowTheNumberOfKeysOfFcall() {
		CommandArgs<byte[], byte[]> args = args().add("myfunction").add(3).addKeys(A, B, C).addValues(ascii("1"));

		assertThat(ClusterKeys.keys(CommandType.FCALL, args)).isDeepEqualTo(new byte[][] { A, B, C });
	}

	@Test
	void takesTheKeysOfAReadOnlyScriptTheSameWay() {
		CommandArgs<byte[], byte[]> args = args().add(ascii("return 1")).add(1).addKeys(B).addValues(A);

		assertThat(ClusterKeys.keys(CommandType.EVAL_RO, args)).isDeepEqualTo(new byte[][] { B });
	}

	@Test
	void takesTheKeysThatFollowTheNumberOfKeysOfZunionButNotItsOptions() {
		CommandArgs<byte[], byte[]> args = args().add(2).addKeys(A, B);
		ZAggregateArgs.Builder.weights(1, 2).max().build(args);

		assertThat(ClusterKeys.keys(CommandType.ZUNION, args)).isDeepEqualTo(new byte[][] { A, B });
	}

	@Test
	void takesTheKeysThatFollowTheNumberOfKeysOfLmpopButNotItsDirectionAndCount() {
		CommandArgs<byte[], byte[]> args = args().add(3).addKeys(A, B, C);
		LMPopArgs.Builder.left().count(2).build(args);

		assertThat(ClusterKeys.keys(CommandType.LMPOP, args)).isDeepEqualTo(new byte[][] { A, B, C });
	}

	@Test
	void takesTheKeysThatFollowTheNumberOfKeysOfSintercardButNotItsLimit() {
		CommandArgs<byte[], byte[]> args = args().add(2).addKeys(A, B).add(CommandKeyword.LIMIT).add(10);

		assertThat(ClusterKeys.keys(CommandType.SINTERCARD, args)).isDeepEqualTo(new byte[][] { A, B });
	}

	@Test
	void takesTheDestinationAndTheKeysThatFollowTheNumberOfKeysOfZunionstore() {
		CommandArgs<byte[], byte[]> args = args().addKey(C).add(2).addKeys(A, B);
		ZAggregateArgs.Builder.weights(3, 4).sum().build(args);

		assertThat(ClusterKeys.keys(CommandType.ZUNIONSTORE, args)).isDeepEqualTo(new byte[][] { C, A, B });
	}

	@Test
	void takesTheDestinationAndTheKeysOfZinterstore() {
		CommandArgs<byte[], byte[]> args = args().addKey(C).add(1).addKeys(A);

		assertThat(ClusterKeys.keys(CommandType.ZINTERSTORE, args)).isDeepEqualTo(new byte[][] { C, A });
	}

	@Test
	void takesTheDestinationAndEveryOtherArgumentOfSunionstoreAsKeys() {
		CommandArgs<byte[], byte[]> args = args().addKey(C).addKeys(A, B);

		assertThat(ClusterKeys.keys(CommandType.SUNIONSTORE, args)).isDeepEqualTo(new byte[][] { C, A, B });
	}

	@Test
	void takesNoKeysOfASingleKeyCommand() {
		CommandArgs<byte[], byte[]> args = args().addKey(A).addValue(B);

		assertThat(ClusterKeys.keys(CommandType.SET, args)).isNull();
	}

	@Test
	void takesNoKeysOfAHashCommandWhoseFieldsAreNotKeys() {
		CommandArgs<byte[], byte[]> args = args().addKey(A).add(B).add(C);

		assertThat(ClusterKeys.keys(CommandType.HMGET, args)).isNull();
	}

	@Test
	void takesNoKeysOfACommandThatIsNotOneOfLettucesCommandTypes() {
		ProtocolKeyword custom = new ProtocolKeyword() {

			@Override
			public byte[] getBytes() {
				return ascii("DEL");
			}

			@Override
			public String toString() {
				return "DEL";
			}

		};
		CommandArgs<byte[], byte[]> args = args().addKeys(A, B);

		assertThat(ClusterKeys.keys(custom, args)).isNull();
	}

	@ParameterizedTest
	@EnumSource(names = { "DEL", "UNLINK", "EXISTS", "TOUCH", "MGET" })
	void splitsCommandsThatReadOrRemoveEachKeyOnItsOwn(CommandType type) {
		assertThat(ClusterKeys.splittable(type)).isTrue();
	}

	@ParameterizedTest
	@EnumSource(names = { "MSET", "MSETNX", "RENAME", "SUNIONSTORE", "SINTER", "PFMERGE", "PFCOUNT", "EVAL", "ZUNION",
			"ZUNIONSTORE", "LMPOP", "GET", "SET" })
	void doesNotSplitCommandsWhoseKeysBelongTogether(CommandType type) {
		assertThat(ClusterKeys.splittable(type)).isFalse();
	}

	@Test
	void doesNotSplitACommandThatIsNotOneOfLettucesCommandTypes() {
		assertThat(ClusterKeys.splittable(() -> ascii("DEL"))).isFalse();
	}

	private static CommandArgs<byte[], byte[]> args() {
		return new CommandArgs<>(ByteArrayCodec.INSTANCE);
	}

	private static byte[] ascii(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

}
