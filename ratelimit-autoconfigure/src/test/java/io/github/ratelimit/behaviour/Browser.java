package io.github.ratelimit.behaviour;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import com.sun.net.httpserver.HttpServer;
import org.jspecify.annotations.Nullable;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * A real headless Chromium (Debian's {@code chromium} and {@code chromium-driver}, as
 * {@code .ci/run} installs them) showing a page of its own origin, a tiny server on a
 * loopback port of its own, from which scripts call an API on another origin with
 * {@code fetch()}. The driver is the installed one: nothing is downloaded.
 */
final class Browser implements AutoCloseable {

	static final Path CHROMIUM = Path.of("/usr/bin/chromium");

	static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

	// what the page's script reads of a response: the status, our headers and the body
	private static final String FETCH = """
			const [url, method, body, done] = arguments;
			const init = { method };
			if (body !== null) {
				init.body = body;
				init.headers = { 'Content-Type': 'application/json' };
			}
			fetch(url, init)
				.then(async (response) => done({
					status: response.status,
					rateLimit: response.headers.get('RateLimit'),
					rateLimitPolicy: response.headers.get('RateLimit-Policy'),
					retryAfter: response.headers.get('Retry-After'),
					requestId: response.headers.get('X-Request-Id'),
					body: await response.text()
				}))
				.catch((error) => done({ error: String(error) }));
			""";

	private final HttpServer page;

	private final ChromeDriverService service;

	private final ChromeDriver driver;

	private Browser(HttpServer page, ChromeDriverService service, ChromeDriver driver) {
		this.page = page;
		this.service = service;
		this.driver = driver;
	}

	/**
	 * Skips the calling test, with a message, where Chromium or its driver is missing.
	 */
	static void assumeInstalled() {
		assumeThat(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER))
			.as("headless Chromium tests need %s and %s (apt-get install chromium chromium-driver); skipped", CHROMIUM,
					CHROMEDRIVER)
			.isTrue();
	}

	/**
	 * Starts Chromium on a blank page of an origin of its own, {@code 127.0.0.1} on a
	 * free port.
	 * @return the browser
	 */
	static Browser start() {
		assumeInstalled();
		HttpServer page = pageServer();
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
			.usingAnyFreePort()
			.build();
		ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile())
			.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
					"--no-first-run", "--disable-extensions");
		ChromeDriver driver;
		try {
			driver = new ChromeDriver(service, options);
		}
		catch (RuntimeException ex) {
			page.stop(0);
			service.stop();
			throw ex;
		}
		driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
		driver.get("http://127.0.0.1:" + page.getAddress().getPort() + "/");
		return new Browser(page, service, driver);
	}

	private static HttpServer pageServer() {
		try {
			HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
			byte[] html = "<!doctype html><title>page</title><p>a page on its own origin</p>"
				.getBytes(StandardCharsets.UTF_8);
			server.createContext("/", (exchange) -> {
				exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
				exchange.sendResponseHeaders(200, html.length);
				exchange.getResponseBody().write(html);
				exchange.close();
			});
			server.start();
			return server;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Calls {@code fetch()} from the page's script.
	 * @param url the API's URL, on another origin
	 * @param method the method
	 * @param json a JSON body, sent as {@code application/json} (which a browser
	 * preflights), or {@code null}
	 * @return what the script read
	 */
	Fetched fetch(String url, String method, @Nullable String json) {
		Object result = this.driver.executeAsyncScript(FETCH, url, method, json);
		if (!(result instanceof Map<?, ?> read)) {
			throw new IllegalStateException("The page's script answered " + result);
		}
		Object error = read.get("error");
		if (error != null) {
			return new Fetched(0, null, null, null, null, null, error.toString());
		}
		return new Fetched(((Number) read.get("status")).intValue(), (String) read.get("rateLimit"),
				(String) read.get("rateLimitPolicy"), (String) read.get("retryAfter"), (String) read.get("requestId"),
				(String) read.get("body"), null);
	}

	@Override
	public void close() {
		try {
			this.driver.quit();
		}
		finally {
			this.service.stop();
			this.page.stop(0);
		}
	}

	/**
	 * What a page's script read of a response: {@code null} for a header it could not
	 * read.
	 *
	 * @param status the status, 0 when the fetch failed
	 * @param rateLimit the {@code RateLimit} header
	 * @param rateLimitPolicy the {@code RateLimit-Policy} header
	 * @param retryAfter the {@code Retry-After} header
	 * @param requestId the {@code X-Request-Id} header
	 * @param body the body
	 * @param error the error of a fetch that failed ({@code TypeError: Failed to fetch})
	 */
	record Fetched(int status, @Nullable String rateLimit, @Nullable String rateLimitPolicy,
			@Nullable String retryAfter, @Nullable String requestId, @Nullable String body, @Nullable String error) {

	}

}
