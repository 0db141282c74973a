package io.github.ratelimit.behaviour;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Spring Security's form login at {@code POST /login} (its defaults: a failure redirects
 * to {@code /login?error}) in the MVC behavioural app, next to {@link MvcPasswordGuard}'s
 * HTTP Basic.
 */
@Configuration(proxyBeanMethods = false)
class MvcFormLoginGuard {

	@Bean
	@Order(2)
	SecurityFilterChain formLoginChain(HttpSecurity http) throws Exception {
		return http.securityMatcher("/login", "/form/**")
			.authorizeHttpRequests((requests) -> requests.anyRequest().authenticated())
			.formLogin(Customizer.withDefaults())
			.csrf((csrf) -> csrf.disable())
			.build();
	}

}
