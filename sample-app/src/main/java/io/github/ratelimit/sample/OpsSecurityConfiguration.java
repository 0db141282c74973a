package io.github.ratelimit.sample;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * The 'ops' profile: Actuator requests need HTTP Basic as user {@code ops} (role OPS),
 * health aside. The {@code ratelimits} endpoint's reads list client addresses, user names
 * and bans, so they are guarded as its writes are. The chain matches Actuator requests
 * only: the API is left to the rate limiter, exactly as without the profile (where
 * application.yml turns Spring Security off).
 */
@Configuration(proxyBeanMethods = false)
@Profile("ops")
class OpsSecurityConfiguration {

	@Bean
	SecurityFilterChain opsSecurityFilterChain(HttpSecurity http) throws Exception {
		http.securityMatcher(EndpointRequest.toAnyEndpoint())
			.authorizeHttpRequests((requests) -> requests.requestMatchers(EndpointRequest.to("health"))
				.permitAll()
				.anyRequest()
				.hasRole("OPS"))
			.httpBasic(Customizer.withDefaults())
			// scripts and curl call the endpoint with a password, not a browser session:
			// no CSRF token to send
			.csrf((csrf) -> csrf.disable())
			.sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS));
		return http.build();
	}

	@Bean
	InMemoryUserDetailsManager opsUsers(@Value("${sample.ops.password}") String password) {
		// stored hashed, as a real user store would
		String encoded = PasswordEncoderFactories.createDelegatingPasswordEncoder().encode(password);
		return new InMemoryUserDetailsManager(User.withUsername("ops").password(encoded).roles("OPS").build());
	}

}
