package io.github.ratelimit.reputation;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.ratelimit.identity.AddressBits;
import io.github.ratelimit.test.ManualTimeMeter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * A list read over HTTP from a local server: a 2xx answer is read, any other status fails
 * the refresh (an error page is never read as a list), and a server that went away fails
 * it too; the last good list stays.
 */
class UrlListSourceTests {

	private final AtomicInteger status = new AtomicInteger(200);

	private final AtomicReference<String> body = new AtomicReference<>("203.0.113.0/24\n");

	private HttpServer server;

	@BeforeEach
	void startServer() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/drop.txt", (exchange) -> {
			byte[] bytes = this.body.get().getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(this.status.get(), bytes.length);
			exchange.getResponseBody().write(bytes);
			exchange.close();
		});
		this.server.start();
	}

	@AfterEach
	void stopServer() {
		this.server.stop(0);
	}

	private UrlListSource source(String userInfo) throws IOException {
		return new UrlListSource(
				URI.create("http://" + userInfo + "127.0.0.1:" + this.server.getAddress().getPort() + "/drop.txt")
					.toURL(),
				Duration.ofSeconds(5));
	}

	@Test
	void readsA2xxAnswer() throws IOException {
		try (Reader reader = source("").open()) {
			assertThat(new BufferedReader(reader).readLine()).isEqualTo("203.0.113.0/24");
		}
	}

	@Test
	void anErrorStatusFailsTheRefreshAndKeepsTheLastGoodList() throws IOException {
		ManualTimeMeter clock = new ManualTimeMeter(Instant.parse("2026-03-01T10:00:00Z"));
		ReputationList list = new ReputationList("drop", source(""), null, Duration.ofMinutes(5), 100, clock);
		assertThat(list.refresh()).isEqualTo(RefreshResult.LOADED);
		this.status.set(503);
		this.body.set("198.51.100.0/24\n");
		assertThatIOException().isThrownBy(() -> source("").open().close()).withMessage("HTTP 503");
		assertThat(list.refresh()).isEqualTo(RefreshResult.FAILED);
		assertThat(list.contains(AddressBits.parse("203.0.113.1"))).isTrue();
		assertThat(list.contains(AddressBits.parse("198.51.100.1"))).isFalse();
		this.server.stop(0);
		assertThat(list.refresh()).isEqualTo(RefreshResult.FAILED);
		assertThat(list.contains(AddressBits.parse("203.0.113.1"))).isTrue();
	}

	@Test
	void theLocationNeverShowsCredentials() throws IOException {
		assertThat(source("feed:s3cret@").location()).doesNotContain("s3cret").endsWith("/drop.txt");
	}

}
