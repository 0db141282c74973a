package io.github.ratelimit.behaviour;

import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * A handler on WebFlux that completes its response on the wire (all of its
 * {@code Content-Length}, written) and then goes on running until the test releases it,
 * and one that answers at once. The twin of {@link MvcHeldEndpoints}.
 */
@RestController
class WebFluxHeldEndpoints {

	private final HeldResponses held;

	WebFluxHeldEndpoints(HeldResponses held) {
		this.held = held;
	}

	@PostMapping("/held/commit-then-wait")
	Mono<Void> commitThenWait(ServerHttpResponse response) {
		return Mono.defer(() -> {
			this.held.enter();
			response.getHeaders().setContentType(MediaType.TEXT_PLAIN);
			response.getHeaders().setContentLength(HeldResponses.BODY.length);
			return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(HeldResponses.BODY)))
				.then(this.held.released())
				.doFinally((signal) -> this.held.leave());
		});
	}

	@PostMapping("/held/answer")
	Mono<String> answer() {
		return Mono.just("answered");
	}

}
