package io.github.ratelimit.behaviour;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Puts {@code /secure/**} of the MVC behavioural app behind HTTP Basic, with passwords
 * checked by a {@link CountingPasswordEncoder}.
 */
@Configuration(proxyBeanMethods = false)
@Import(SecureApi.class)
class MvcPasswordGuard {

	@Bean
	CountingPasswordEncoder passwordEncoder() {
		return new CountingPasswordEncoder();
	}

	@Bean
	@Order(1)
	SecurityFilterChain passwordGuardedChain(HttpSecurity http) throws Exception {
		return http.securityMatcher("/secure/**")
			.authorizeHttpRequests((requests) -> requests.anyRequest().authenticated())
			.sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.httpBasic(Customizer.withDefaults())
			.csrf((csrf) -> csrf.disable())
			.build();
	}

}
