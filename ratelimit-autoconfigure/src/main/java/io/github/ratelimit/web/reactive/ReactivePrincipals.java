package io.github.ratelimit.web.reactive;

import java.security.Principal;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The principal of an exchange as the reactive filters read it.
 */
final class ReactivePrincipals {

	private static final Logger logger = LoggerFactory.getLogger(ReactivePrincipals.class);

	private ReactivePrincipals() {
	}

	/**
	 * The principal, if any; one that cannot be read leaves the caller anonymous (known
	 * by address), as the limiter takes it.
	 */
	static Mono<Optional<Principal>> of(ServerWebExchange exchange) {
		return exchange.getPrincipal().map(Optional::<Principal>of).onErrorResume((ex) -> {
			logger.debug("Could not read the principal; the caller is anonymous, known by its address", ex);
			return Mono.empty();
		}).defaultIfEmpty(Optional.empty());
	}

}
