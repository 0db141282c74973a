package io.github.ratelimit.behaviour;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebHandler;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The lifecycle app on WebFlux (Netty, no annotated controllers): the endpoints
 * {@link LifecycleServer} describes, none of them blocking.
 */
final class LifecycleWebHandler implements WebHandler {

	private final LifecycleGate gate;

	LifecycleWebHandler(LifecycleGate gate) {
		this.gate = gate;
	}

	@Override
	public Mono<Void> handle(ServerWebExchange exchange) {
		ServerHttpResponse response = exchange.getResponse();
		return switch (exchange.getRequest().getPath().value()) {
			case "/capped/fail" -> Mono.error(new IllegalStateException("handler failed"));
			case "/capped/hold" -> Mono.defer(() -> {
				this.gate.entered();
				// true: a cancelled request must not cancel the gate the others wait for
				return Mono.fromFuture(this.gate.closed(), true);
			}).doFinally((signal) -> this.gate.left()).then(write(response, "released"));
			// a chunk every 10 ms for up to 10 s: a client that goes away cancels it
			case "/capped/stream" -> response.writeAndFlushWith(Flux.range(0, 1000)
				.concatMap((i) -> Mono.delay(Duration.ofMillis(10)))
				.map((tick) -> Mono.just(response.bufferFactory().wrap(new byte[1024]))));
			default -> write(response, "ok");
		};
	}

	private static Mono<Void> write(ServerHttpResponse response, String body) {
		return response.writeWith(Mono
			.fromSupplier(() -> (DataBuffer) response.bufferFactory().wrap(body.getBytes(StandardCharsets.UTF_8))));
	}

}
