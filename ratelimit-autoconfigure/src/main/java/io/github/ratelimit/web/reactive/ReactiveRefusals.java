package io.github.ratelimit.web.reactive;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

import io.github.ratelimit.core.Decision;
import io.github.ratelimit.http.RateLimitStatus;
import io.github.ratelimit.http.RejectionBodyWriter;

/**
 * Writes the status and body of a refusal, for the gate before authentication and the
 * filter after it alike (their headers are written by each).
 */
final class ReactiveRefusals {

	private static final Logger logger = LoggerFactory.getLogger(ReactiveRefusals.class);

	private ReactiveRefusals() {
	}

	/**
	 * Sets the status and content type of a refusal.
	 * @return its body, empty when the body writer failed (the request is refused all the
	 * same)
	 */
	static byte[] prepare(ServerHttpResponse response, Decision.Refusal refusal, String requestId,
			RejectionBodyWriter bodyWriter) {
		response.setStatusCode(HttpStatusCode.valueOf(RateLimitStatus.of(refusal).code()));
		try {
			byte[] body = bodyWriter.write(refusal, requestId);
			response.getHeaders().setContentType(MediaType.parseMediaType(bodyWriter.contentType()));
			return body;
		}
		catch (RuntimeException ex) {
			// a broken body must neither let the request through nor turn into a 500
			logger.error("Rate-limit rejection body writer failed; answering without a body", ex);
			return new byte[0];
		}
	}

	/**
	 * Gives a refusal of a cross-origin request the application's CORS headers, then
	 * writes its body and completes the response.
	 */
	static Mono<Void> write(ServerWebExchange exchange, byte[] body, ReactiveCors cors) {
		return cors.applyToRefusal(exchange).then(Mono.defer(() -> write(exchange.getResponse(), body)));
	}

	private static Mono<Void> write(ServerHttpResponse response, byte[] body) {
		response.getHeaders().setContentLength(body.length);
		if (body.length == 0) {
			return response.setComplete();
		}
		return response.writeWith(Mono.fromSupplier(() -> (DataBuffer) response.bufferFactory().wrap(body)));
	}

}
