package dev.redisbatch.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link TcpProxy} tracks the requests outstanding on its connections unless told not to,
 * forwards every byte either way, and closes connections on a request when told to.
 */
class TcpProxyTests {

	private static RedisProcess redis;

	@BeforeAll
	static void startRedis() {
		redis = RedisProcess.start();
	}

	@AfterAll
	static void stopRedis() {
		redis.close();
	}

	@Test
	void tracksOutstandingRequestsByDefault() throws IOException {
		try (TcpProxy proxy = TcpProxy.start(redis.port())) {
			assertThat(pingTwice(proxy)).isEqualTo("+PONG\r\n+PONG\r\n");
			assertThat(proxy.peakOutstandingRequests()).isBetween(1L, 2L);
			assertThat(proxy.peakOutstandingRequestBytes()).isPositive();
		}
	}

	@Test
	void forwardsWithoutParsingWhenTrackingIsOff() throws IOException {
		try (TcpProxy proxy = TcpProxy.start(redis.port()).trackOutstandingRequests(false)) {
			assertThat(pingTwice(proxy)).isEqualTo("+PONG\r\n+PONG\r\n");
			assertThat(proxy.peakOutstandingRequests()).isZero();
			assertThat(proxy.peakOutstandingRequestBytes()).isZero();
			assertThat(proxy.clientBytes()).isEqualTo(28);
		}
	}

	@Test
	void closesTheGivenNumberOfConnectionsOnARequestThatContainsTheText() throws IOException {
		try (TcpProxy proxy = TcpProxy.start(redis.port()).closeOnRequest("PING", 1)) {
			try (Socket closed = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
				closed.getOutputStream().write("*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
				assertThat(closed.getInputStream().read()).isEqualTo(-1);
			}
			assertThat(pingTwice(proxy)).isEqualTo("+PONG\r\n+PONG\r\n");
			assertThat(proxy.connectionsAccepted()).isEqualTo(2);
		}
	}

	private static String pingTwice(TcpProxy proxy) throws IOException {
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
			OutputStream out = socket.getOutputStream();
			out.write("*1\r\n$4\r\nPING\r\n*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			byte[] reply = in.readNBytes(14);
			return new String(reply, StandardCharsets.US_ASCII);
		}
	}

}
