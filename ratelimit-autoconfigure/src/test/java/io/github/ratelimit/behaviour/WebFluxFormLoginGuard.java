package io.github.ratelimit.behaviour;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatchers;

/**
 * Spring Security's form login at {@code POST /login} (its defaults: a failure redirects
 * to {@code /login?error}) in the WebFlux behavioural app, next to
 * {@link WebFluxPasswordGuard}'s HTTP Basic.
 */
@Configuration(proxyBeanMethods = false)
class WebFluxFormLoginGuard {

	@Bean
	@Order(2)
	SecurityWebFilterChain formLoginChain(ServerHttpSecurity http) {
		return http.securityMatcher(ServerWebExchangeMatchers.pathMatchers("/login", "/form/**"))
			.authorizeExchange((exchanges) -> exchanges.anyExchange().authenticated())
			.formLogin(Customizer.withDefaults())
			.csrf((csrf) -> csrf.disable())
			.build();
	}

}
