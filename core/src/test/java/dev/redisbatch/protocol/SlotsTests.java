package dev.redisbatch.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Slots}: hash slots as the Redis Cluster specification defines them (CRC16-XMODEM
 * of the key or of its hash tag, modulo 16384), checked against the specification's
 * vector and a reference implementation written here from the specification, not against
 * Lettuce's.
 */
class SlotsTests {

	@Test
	void hasTheSixteenThousandThreeHundredEightyFourSlotsOfACluster() {
		assertThat(Slots.COUNT).isEqualTo(16384);
	}

	@Test
	void referenceCrc16GivesTheSpecificationsCheckValue() {
		assertThat(crc16(ascii("123456789"))).isEqualTo(0x31C3);
	}

	@Test
	void hashesTheSpecificationsCheckStringToItsCrc16ModuloTheSlotCount() {
		assertThat(Slots.of(ascii("123456789"))).isEqualTo(0x31C3 % 16384).isEqualTo(12739);
	}

	@ParameterizedTest
	@CsvSource({ "foo, 12182", "bar, 5061", "hello, 866", "somekey, 11058", "user1000, 3443", "abc, 7638" })
	void hashesKeysToTheSlotsThatRedisReports(String key, int slot) {
		// CLUSTER KEYSLOT on redis-server 7.0 gives these; so does the reference CRC16
		assertThat(crc16(ascii(key)) % 16384).isEqualTo(slot);
		assertThat(Slots.of(ascii(key))).isEqualTo(slot);
	}

	@Test
	void hashesTheEmptyKeyToSlotZero() {
		assertThat(Slots.of(new byte[0])).isZero();
	}

	@Test
	void hashesEverySingleByteKeyAsTheReferenceDoes() {
		for (int i = 0; i < 256; i++) {
			byte[] key = { (byte) i };
			assertThat(Slots.of(key)).as("byte %d", i).isEqualTo(referenceSlot(key));
		}
	}

	@Test
	void hashesABinaryKeyOfEveryByteValueAsTheReferenceDoes() {
		byte[] key = new byte[256];
		for (int i = 0; i < 256; i++) {
			key[i] = (byte) (255 - i);
		}
		assertThat(Slots.of(key)).isEqualTo(referenceSlot(key));
	}

	@Test
	void hashesALongKeyAsTheReferenceDoes() {
		byte[] key = new byte[10_000];
		for (int i = 0; i < key.length; i++) {
			key[i] = (byte) (i * 31 + 7);
		}
		assertThat(Slots.of(key)).isEqualTo(referenceSlot(key));
	}

	@Test
	void hashesKeysWithTheSameHashTagToTheSameSlot() {
		assertThat(Slots.of(ascii("{user1000}.following"))).isEqualTo(Slots.of(ascii("{user1000}.followers")))
			.isEqualTo(3443);
	}

	@Test
	void hashesOnlyTheHashTag() {
		assertThat(Slots.of(ascii("{user1000}.following"))).isEqualTo(referenceSlot(ascii("user1000")));
	}

	@Test
	void hashesTheWholeKeyWhenTheFirstHashTagIsEmpty() {
		assertThat(Slots.of(ascii("foo{}{bar}"))).isEqualTo(referenceSlot(ascii("foo{}{bar}"))).isEqualTo(8363);
	}

	@Test
	void hashesFromAfterTheFirstOpeningBraceToTheFirstClosingBraceAfterIt() {
		assertThat(Slots.of(ascii("foo{{bar}}zap"))).isEqualTo(referenceSlot(ascii("{bar"))).isEqualTo(4015);
	}

	@Test
	void hashesOnlyTheFirstHashTag() {
		assertThat(Slots.of(ascii("foo{bar}{zap}"))).isEqualTo(referenceSlot(ascii("bar"))).isEqualTo(5061);
	}

	@Test
	void hashesTheWholeKeyWhenTheOpeningBraceIsNeverClosed() {
		assertThat(Slots.of(ascii("foo{bar"))).isEqualTo(referenceSlot(ascii("foo{bar")));
	}

	@Test
	void hashesTheWholeKeyWhenItIsOnlyAnEmptyHashTag() {
		assertThat(Slots.of(ascii("{}"))).isEqualTo(referenceSlot(ascii("{}"))).isEqualTo(15257);
	}

	@Test
	void ignoresAClosingBraceBeforeTheFirstOpeningBrace() {
		assertThat(Slots.of(ascii("}{abc}"))).isEqualTo(referenceSlot(ascii("abc"))).isEqualTo(7638);
	}

	@Test
	void hashesABinaryHashTag() {
		byte[] key = { 'x', '{', (byte) 0xFF, 0, '\r', '\n', '}', 'y' };
		assertThat(Slots.of(key)).isEqualTo(referenceSlot(new byte[] { (byte) 0xFF, 0, '\r', '\n' }));
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "a", "key:1", "{", "}", "{}", "{a}", "a{b}c", "a{b", "a}b{c", "{{}}", "{}}", "x{}{y}",
			"{a}{b}", "{{a}}", "user:{42}:profile", "é{ü}" })
	void hashesAnyKeyAsTheSpecificationsAlgorithmDoes(String key) {
		byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
		assertThat(Slots.of(bytes)).isEqualTo(referenceSlot(bytes));
	}

	@Test
	void givesAnyForNoKeys() {
		assertThat(Slots.of(new byte[0][])).isEqualTo(Slots.ANY).isEqualTo(-1);
	}

	@Test
	void givesTheSlotOfASingleKey() {
		assertThat(Slots.of(new byte[][] { ascii("foo") })).isEqualTo(12182);
	}

	@Test
	void givesTheSharedSlotOfKeysWithTheSameHashTag() {
		assertThat(Slots
			.of(new byte[][] { ascii("{user1000}.following"), ascii("{user1000}.followers"), ascii("user1000") }))
			.isEqualTo(3443);
	}

	@Test
	void givesTheSlotOfTheSameKeyRepeated() {
		assertThat(Slots.of(new byte[][] { ascii("foo"), ascii("foo") })).isEqualTo(12182);
	}

	@Test
	void givesCrossForKeysInDifferentSlots() {
		assertThat(Slots.of(new byte[][] { ascii("foo"), ascii("bar") })).isEqualTo(Slots.CROSS).isEqualTo(-2);
	}

	@Test
	void givesCrossWhenOnlyTheLastKeyIsInAnotherSlot() {
		assertThat(Slots.of(new byte[][] { ascii("{t}a"), ascii("{t}b"), ascii("{t}c"), ascii("foo") }))
			.isEqualTo(Slots.CROSS);
	}

	@Test
	void listsTheDistinctSlotsInAscendingOrder() {
		assertThat(Slots.distinct(new byte[][] { ascii("foo"), ascii("hello"), ascii("bar"), ascii("foo") }))
			.containsExactly(866, 5061, 12182);
	}

	@Test
	void listsOneSlotForKeysWithTheSameHashTag() {
		assertThat(Slots.distinct(new byte[][] { ascii("{user1000}.following"), ascii("{user1000}.followers") }))
			.containsExactly(3443);
	}

	@Test
	void listsNoSlotsForNoKeys() {
		assertThat(Slots.distinct(new byte[0][])).isEmpty();
	}

	/**
	 * The slot of a key as the Redis Cluster specification defines it: the hash tag is
	 * what lies between the first <code>{</code> and the first <code>}</code> after it,
	 * when that is not empty; otherwise the whole key.
	 */
	private static int referenceSlot(byte[] key) {
		int open = indexOf(key, (byte) '{', 0);
		if (open >= 0) {
			int close = indexOf(key, (byte) '}', open + 1);
			if (close > open + 1) {
				return crc16(Arrays.copyOfRange(key, open + 1, close)) % 16384;
			}
		}
		return crc16(key) % 16384;
	}

	private static int indexOf(byte[] bytes, byte wanted, int from) {
		for (int i = from; i < bytes.length; i++) {
			if (bytes[i] == wanted) {
				return i;
			}
		}
		return -1;
	}

	/**
	 * CRC16-XMODEM, bit by bit, as the specification's reference names it: polynomial
	 * 0x1021, initial value 0, no reflection, no final XOR.
	 */
	private static int crc16(byte[] bytes) {
		int crc = 0;
		for (byte b : bytes) {
			crc ^= (b & 0xFF) << 8;
			for (int bit = 0; bit < 8; bit++) {
				crc = ((crc & 0x8000) != 0) ? ((crc << 1) ^ 0x1021) : (crc << 1);
				crc &= 0xFFFF;
			}
		}
		return crc;
	}

	private static byte[] ascii(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

}
