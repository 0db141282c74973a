package io.github.ratelimit.behaviour;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.context.NoOpServerSecurityContextRepository;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatchers;

/**
 * Puts {@code /secure/**} of the WebFlux behavioural app behind HTTP Basic, with
 * passwords checked by a {@link CountingPasswordEncoder}.
 */
@Configuration(proxyBeanMethods = false)
@Import(SecureApi.class)
class WebFluxPasswordGuard {

	@Bean
	CountingPasswordEncoder passwordEncoder() {
		return new CountingPasswordEncoder();
	}

	@Bean
	@Order(1)
	SecurityWebFilterChain passwordGuardedChain(ServerHttpSecurity http) {
		return http.securityMatcher(ServerWebExchangeMatchers.pathMatchers("/secure/**"))
			.authorizeExchange((exchanges) -> exchanges.anyExchange().authenticated())
			.securityContextRepository(NoOpServerSecurityContextRepository.getInstance())
			.httpBasic(Customizer.withDefaults())
			.csrf((csrf) -> csrf.disable())
			.build();
	}

}
