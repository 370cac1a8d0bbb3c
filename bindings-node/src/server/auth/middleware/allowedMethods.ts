/** `ferrymcp/server/auth/middleware/allowedMethods.js`: Express middleware answering other HTTP methods with 405. */
import type { NextFunction, Request, Response } from 'express';

import { MethodNotAllowedError } from '../errors.js';

/** Passes the listed methods on; answers any other with `405`, an `Allow` header and the OAuth error body. */
export function allowedMethods(methods: string[]): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    if (methods.includes(req.method)) {
      next();
      return;
    }
    const error = new MethodNotAllowedError(`The method ${req.method} is not allowed for this endpoint`);
    res.status(405).set('Allow', methods.join(', ')).json(error.toResponseObject());
  };
}
