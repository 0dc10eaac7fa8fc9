import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { map, Observable } from 'rxjs';

/** What a session use case answers: the body, and the Set-Cookie that goes with it. */
export interface SessionAnswer<T> { body: T; setCookie: string }

/** Moves a SessionAnswer's cookie into the Set-Cookie header, so that handlers stay one line and never touch the reply. */
@Injectable()
export class SessionAnswerInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const res = context.switchToHttp().getResponse<FastifyReply>();
    return next.handle().pipe(map((answer: SessionAnswer<unknown>) => {
      res.header('set-cookie', answer.setCookie);
      res.header('cache-control', 'no-store');
      return answer.body;
    }));
  }
}
