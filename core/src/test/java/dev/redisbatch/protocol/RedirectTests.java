package dev.redisbatch.protocol;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Redirect}: {@code MOVED} and {@code ASK} error replies as a cluster sends them
 * (the forms below were checked against redis-server 7.0), and everything else refused.
 */
class RedirectTests {

	@Test
	void readsAMovedRedirect() {
		assertThat(Redirect.parse("MOVED 3999 127.0.0.1:6381")).isEqualTo(new Redirect(false, 3999, "127.0.0.1", 6381));
	}

	@Test
	void readsAnAskRedirect() {
		assertThat(Redirect.parse("ASK 3999 127.0.0.1:6381")).isEqualTo(new Redirect(true, 3999, "127.0.0.1", 6381));
	}

	@Test
	void readsAnIpv6LoopbackHostWithoutBrackets() {
		assertThat(Redirect.parse("MOVED 1 ::1:7000")).isEqualTo(new Redirect(false, 1, "::1", 7000));
	}

	@Test
	void readsAFullIpv6HostWithoutBrackets() {
		assertThat(Redirect.parse("ASK 12182 2001:db8:0:1::42:6379"))
			.isEqualTo(new Redirect(true, 12182, "2001:db8:0:1::42", 6379));
	}

	@Test
	void readsAnIpv4MappedIpv6Host() {
		assertThat(Redirect.parse("MOVED 5 ::ffff:10.0.0.7:30001"))
			.isEqualTo(new Redirect(false, 5, "::ffff:10.0.0.7", 30001));
	}

	@Test
	void readsAHostname() {
		assertThat(Redirect.parse("MOVED 16383 redis-2.cache.example.com:6379"))
			.isEqualTo(new Redirect(false, 16383, "redis-2.cache.example.com", 6379));
	}

	@Test
	void readsTheFirstSlotAndTheLowestPort() {
		assertThat(Redirect.parse("MOVED 0 h:1")).isEqualTo(new Redirect(false, 0, "h", 1));
	}

	@Test
	void readsTheLastSlotAndTheHighestPort() {
		assertThat(Redirect.parse("MOVED 16383 h:65535")).isEqualTo(new Redirect(false, 16383, "h", 65535));
	}

	@Test
	void readsAnEmptyEndpointAsTheSameHostOnAnotherPort() {
		assertThat(Redirect.parse("MOVED 3999 :6380")).isEqualTo(new Redirect(false, 3999, "", 6380));
	}

	@ParameterizedTest
	@ValueSource(strings = { "MOVED", "MOVED ", "MOVED 3999", "MOVED 3999 ", "ASK 3999", "MOVED 127.0.0.1:6381",
			"MOVED 3999 127.0.0.1", "MOVED 3999 127.0.0.1:", "MOVED 3999 127.0.0.1:6381 extra",
			"MOVED  3999 127.0.0.1:6381" })
	void refusesARedirectWithMissingOrExtraParts(String error) {
		assertThat(Redirect.parse(error)).isNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "MOVED 3999 127.0.0.1:0", "MOVED 3999 127.0.0.1:65536", "MOVED 3999 127.0.0.1:-1",
			"MOVED 3999 127.0.0.1:port", "MOVED 3999 127.0.0.1:99999999999", "MOVED 3999 127.0.0.1:6381x" })
	void refusesABadPort(String error) {
		assertThat(Redirect.parse(error)).isNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "MOVED 16384 127.0.0.1:6381", "MOVED -1 127.0.0.1:6381", "ASK 99999 127.0.0.1:6381",
			"MOVED slot 127.0.0.1:6381", "MOVED 3999999999999 127.0.0.1:6381" })
	void refusesASlotOutOfRange(String error) {
		assertThat(Redirect.parse(error)).isNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "WRONGTYPE Operation against a key holding the wrong kind of value",
			"CROSSSLOT Keys in request don't hash to the same slot", "TRYAGAIN Multiple keys request during rehashing",
			"CLUSTERDOWN Hash slot not served", "ERR unknown command 'FOO'", "moved 3999 127.0.0.1:6381",
			"MOVEDX 3999 127.0.0.1:6381", "ASKING", "", " MOVED 3999 127.0.0.1:6381" })
	void refusesOtherErrors(String error) {
		assertThat(Redirect.parse(error)).isNull();
	}

	@Test
	void refusesNoError() {
		assertThat(Redirect.parse(null)).isNull();
	}

	@Test
	void recognizesAMovedError() {
		assertThat(Redirect.isRedirect("MOVED 3999 127.0.0.1:6381")).isTrue();
	}

	@Test
	void recognizesAnAskError() {
		assertThat(Redirect.isRedirect("ASK 3999 127.0.0.1:6381")).isTrue();
	}

	@Test
	void recognizesARedirectByItsStartEvenWhenItIsMalformed() {
		assertThat(Redirect.isRedirect("MOVED nonsense")).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "WRONGTYPE Operation against a key holding the wrong kind of value", "MOVED", "ASK",
			"ASKING", "moved 3999 127.0.0.1:6381", "ERR MOVED 3999 127.0.0.1:6381", "" })
	void doesNotRecognizeOtherErrorsAsRedirects(String error) {
		assertThat(Redirect.isRedirect(error)).isFalse();
	}

	@Test
	void doesNotRecognizeNoErrorAsARedirect() {
		assertThat(Redirect.isRedirect(null)).isFalse();
	}

	@Test
	void namesAMovedRedirectMoved() {
		assertThat(new Redirect(false, 1, "h", 1).kind()).isEqualTo("MOVED");
	}

	@Test
	void namesAnAskRedirectAsk() {
		assertThat(new Redirect(true, 1, "h", 1).kind()).isEqualTo("ASK");
	}

	@ParameterizedTest
	@ValueSource(strings = { "ASK", "MOVED" })
	void namesAParsedRedirectByTheWordItStartedWith(String kind) {
		assertThat(Redirect.parse(kind + " 1 h:1").kind()).isEqualTo(kind);
	}

}
