package io.github.ratelimit.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.time.Duration;

import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.util.Assert;

/**
 * Makes {@code RestClient} and {@code RestTemplate} calls honour the rate limits of the
 * APIs they call: holds a request while its host's policy is exhausted, waits what a 429
 * (or a 503 with {@code Retry-After}) says and sends the request again, and throws a
 * {@link RateLimitedException} when it gives up. Every other response is handed back
 * untouched.
 * <p>
 * Blocking: the calling thread waits through a {@link Sleeper}. Added by hand:
 * {@code RestClient.builder().requestInterceptor(new RateLimitClientHttpRequestInterceptor(client))};
 * the interceptors added after it run again for every attempt.
 */
public final class RateLimitClientHttpRequestInterceptor implements ClientHttpRequestInterceptor {

	/** The request header whose presence makes any method safe to retry. */
	static final String IDEMPOTENCY_KEY = "Idempotency-Key";

	/** Read one byte past the largest problem body parsed, so an oversized one shows. */
	private static final int PROBLEM_READ_LIMIT = ProblemDetails.MAX_BODY_BYTES + 1;

	private final RateLimitClient client;

	private final Sleeper sleeper;

	/**
	 * Creates an interceptor whose waits put the calling thread to sleep.
	 * @param client the client that decides, shared by every interceptor and filter of
	 * the application
	 */
	public RateLimitClientHttpRequestInterceptor(RateLimitClient client) {
		this(client, Sleeper.threadSleep());
	}

	/**
	 * Creates an interceptor that waits through the given sleeper.
	 * @param client the client that decides
	 * @param sleeper how to wait
	 */
	public RateLimitClientHttpRequestInterceptor(RateLimitClient client, Sleeper sleeper) {
		Assert.notNull(client, "'client' must not be null");
		Assert.notNull(sleeper, "'sleeper' must not be null");
		this.client = client;
		this.sleeper = sleeper;
	}

	@Override
	public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
			throws IOException {
		ClientCall call = this.client.start(request.getMethod().name(), request.getURI(),
				request.getHeaders().containsHeader(IDEMPOTENCY_KEY));
		while (true) {
			waitFor(call.beforeSend());
			ClientHttpResponse response;
			try {
				response = execution.execute(request, body);
			}
			catch (IOException | RuntimeException ex) {
				call.sendFailed();
				throw ex;
			}
			ClientDecision decision = call.afterResponse(response.getStatusCode().value(),
					response.getHeaders()::getOrEmpty, () -> problemBody(response));
			if (decision instanceof ClientDecision.Retry retry) {
				response.close();
				waitFor(retry.delay());
			}
			else if (decision instanceof ClientDecision.GiveUp giveUp) {
				response.close();
				throw giveUp.exception();
			}
			else {
				return response;
			}
		}
	}

	private void waitFor(Duration duration) throws InterruptedIOException {
		if (duration.isZero() || duration.isNegative()) {
			return;
		}
		try {
			this.sleeper.sleep(duration);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			InterruptedIOException interrupted = new InterruptedIOException(
					"Interrupted while waiting " + duration + " before sending a rate-limited request again");
			interrupted.initCause(ex);
			throw interrupted;
		}
	}

	// only asked for when the call gives up: the problem's members go into the exception
	private static byte[] problemBody(ClientHttpResponse response) {
		try (InputStream in = response.getBody()) {
			return in.readNBytes(PROBLEM_READ_LIMIT);
		}
		catch (IOException ex) {
			return new byte[0];
		}
	}

}
